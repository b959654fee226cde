# fault-sigkill.sh: vbed itself killed with SIGKILL while a cold-booted guest
# starts (the host arm's run before it has finished). A booted guest is a
# transient domain started with AUTODESTROY: it dies with vbed's libvirt
# connection, which this test sees happen -- no QEMU of the session within
# 15 s of the kill, before anything else cleans up. What the finished run
# measured stays in samples.jsonl, every line of which parses; then `vbed
# clean` removes what is left (disks, the host arm's directory) and nothing
# remains. (A restored guest is the other case: it outlives the connection
# until `vbed clean`; tests/guests/restore.sh kills vbed in its measure phase.)
# vbed-test: paired 13 (tests/run-tests.sh: it may run beside another)
. "$VBED_SRC/tests/lib.sh"
need_libvirt
need_prog jq

log=$VBED_TEST_TMP/log
"$VBED" run --cold --id e2ekill -o "$VBED_TEST_TMP/res" tests/data/scenarios/host-and-guest.ini >"$log" 2>&1 &
pid=$!
# the guest run is the second: kill once its domain runs
wait_for_log "$log" $pid 'vbed-e2ekill-002-guest-1: booting: waiting for the guest agent' 1 400
pgrep -f "qemu-system.*vbed-e2ekill-002" >/dev/null || fail "the guest's QEMU does not run when vbed is killed"
kill -KILL $pid
wait $pid
killed=$SECONDS
cat "$log"
gone=
for _ in $(seq 1 30); do
  if ! pgrep -f "qemu-system.*vbed-e2ekill-" >/dev/null &&
     ! virsh -c qemu:///system list --name | grep -q "vbed-e2ekill-"; then gone=1; break; fi
  sleep 0.5
done
[ -n "$gone" ] || fail "the booted guest outlived vbed's connection (AUTODESTROY did not act within 15 s)"
echo "the guest's domain was gone $((SECONDS - killed)) s after SIGKILL, before vbed clean"
expect_rc 0 "$VBED" clean --session e2ekill
echo "$out"
contains "$out" "vbed-e2ekill-002-guest-1" || fail "vbed clean did not remove the guest's disks"
assert_nothing_left e2ekill
r=$(latest_results "$VBED_TEST_TMP/res")
jq -c . "$r/samples.jsonl" >/dev/null || fail "samples.jsonl has a line that does not parse"
[ "$(jq -r 'select(.metric == "tps_arm" and .labels.arm == "host") | .value' "$r/samples.jsonl" | wc -l)" -eq 1 ] ||
  fail "the host arm's finished run was not kept"
