# fault-mariadb-killed.sh: MariaDB killed (SIGKILL) inside a guest during the
# warm-up. The run fails with a reason that names the guest and the phase,
# vbed exits 1, what was measured before (boot, prepare) stays in
# samples.jsonl, the raw logs stay, and nothing of the run is left.
# vbed-test: paired 41 (tests/run-tests.sh: it may run beside another)
. "$VBED_SRC/tests/lib.sh"
need_libvirt
need_prog jq

# 20 s of warm-up: the kill lands 1-3 s into it here (vbed notices when the
# phase ends, so a longer one only made the test wait)
sed 's/^warmup      = 0s/warmup      = 20s/' tests/data/scenarios/one-guest.ini > "$VBED_TEST_TMP/warm.ini"
log=$VBED_TEST_TMP/log
"$VBED" run --id e2ekm -o "$VBED_TEST_TMP/res" "$VBED_TEST_TMP/warm.ini" >"$log" 2>&1 &
pid=$!
wait_for_log "$log" $pid 'warm-up: ' 1 400
wait_guest_proc vbed-e2ekm-001-guest-1 sysbench # the warm-up runs
virsh -c qemu:///system qemu-agent-command vbed-e2ekm-001-guest-1 \
  '{"execute":"guest-exec","arguments":{"path":"/usr/bin/pkill","arg":["-KILL","-x","mariadbd"]}}' >/dev/null ||
  fail "cannot kill mariadbd in the guest"
wait $pid
rc=$?
cat "$log"
[ $rc -eq 1 ] || fail "exit code $rc, expected 1"
grep -q "in phase warm-up: .*vbed-e2ekm-001-guest-1" "$log" || fail "the reason does not name the phase and the guest"
assert_nothing_left e2ekm
r=$(latest_results "$VBED_TEST_TMP/res")
jq -c . "$r/samples.jsonl" >/dev/null || fail "samples.jsonl has a line that does not parse"
for m in boot_to_ready_s working_set_bytes; do
  [ "$(jq -r "select(.metric == \"$m\") | .value" "$r/samples.jsonl" | wc -l)" -eq 1 ] ||
    fail "$m, measured before the fault, was not kept"
done
jq -e '.runs[0].status == "failed" and (.runs[0].reason | test("warm-up.*guest-1"))' "$r/meta.json" >/dev/null ||
  fail "meta.json does not mark the run failed with its reason"
[ -s "$r/runs/001-guest/guest-1/sysbench-prepare.out" ] || fail "the prepare log was not kept"
[ -s "$r/runs/001-guest/guest-1/sysbench-warmup.out" ] || fail "the warm-up log was not kept"
