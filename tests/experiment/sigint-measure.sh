# sigint-measure.sh: SIGINT in a guest's measure phase: vbed exits 130,
# nothing of the run is left (no domain, disk, qemu, mariadbd), and what was
# measured before stays: samples.jsonl parses line by line and holds the
# host arm's finished run; meta.json says interrupted.
# vbed-test: paired 37 (tests/run-tests.sh: it may run beside another)
. "$VBED_SRC/tests/lib.sh"
need_libvirt
need_prog jq

log=$VBED_TEST_TMP/log
"$VBED" run --id e2esig -o "$VBED_TEST_TMP/res" tests/data/scenarios/host-and-guest.ini >"$log" 2>&1 &
pid=$!
# the guest run is the second: wait for its measure phase
wait_for_log "$log" $pid 'measure: ' 2 300
wait_guest_proc vbed-e2esig-002-guest-1 sysbench
pgrep -f "qemu-system.*vbed-e2esig-" >/dev/null || fail "no guest running before SIGINT"
kill -INT $pid
wait $pid
rc=$?
cat "$log"
[ $rc -eq 130 ] || fail "exit code $rc, expected 130"
assert_nothing_left e2esig
r=$(latest_results "$VBED_TEST_TMP/res")
jq -c . "$r/samples.jsonl" >/dev/null || fail "samples.jsonl has a line that does not parse"
[ "$(jq -r 'select(.metric == "tps_arm" and .labels.arm == "host") | .value' "$r/samples.jsonl" | wc -l)" -eq 1 ] ||
  fail "the host arm's finished run was not kept"
jq -e '.status == "interrupted" and .runs[1].status == "interrupted"' "$r/meta.json" >/dev/null || fail "meta.json status"
