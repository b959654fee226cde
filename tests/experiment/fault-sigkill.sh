# fault-sigkill.sh: vbed itself killed with SIGKILL in a guest's measure
# phase. Its guests die with its libvirt connection (transient domains,
# AUTODESTROY); what a finished run measured stays in samples.jsonl, every
# line of which parses; then `vbed clean` removes what is left (disks, the
# host arm's directory) and nothing remains.
. "$VBED_SRC/tests/lib.sh"
need_libvirt
need_prog jq

log=$VBED_TEST_TMP/log
"$VBED" run --id e2ekill -o "$VBED_TEST_TMP/res" tests/data/scenarios/host-and-guest.ini >"$log" 2>&1 &
pid=$!
# the guest run is the second: wait for its measure phase
wait_for_log "$log" $pid 'measure: ' 2 400
wait_guest_proc vbed-e2ekill-002-guest-1 sysbench
kill -KILL $pid
wait $pid
cat "$log"
for _ in $(seq 1 30); do
  pgrep -f "qemu-system.*vbed-e2ekill-" >/dev/null || break
  sleep 1
done
expect_rc 0 "$VBED" clean
echo "$out"
assert_nothing_left e2ekill
r=$(latest_results "$VBED_TEST_TMP/res")
jq -c . "$r/samples.jsonl" >/dev/null || fail "samples.jsonl has a line that does not parse"
[ "$(jq -r 'select(.metric == "tps_arm" and .labels.arm == "host") | .value' "$r/samples.jsonl" | wc -l)" -eq 1 ] ||
  fail "the host arm's finished run was not kept"
