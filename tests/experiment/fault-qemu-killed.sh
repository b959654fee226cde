# fault-qemu-killed.sh: one guest's QEMU killed (SIGKILL) in the measure
# phase of a 2-guest run. The run fails with a reason that names the guest
# and the phase, vbed exits 1, the other guest's figures are kept (in a run
# that meta.json marks failed, with the reason), the raw logs are kept, and
# nothing of the run is left.
# vbed-test: paired 49 (tests/run-tests.sh: it may run beside another)
. "$VBED_SRC/tests/lib.sh"
need_libvirt
need_prog jq

# 20 s to measure: the kill lands 1-3 s into it here; the other guest
# measures the whole phase, which the test waits for
sed 's/^duration    = 10s/duration    = 20s/' tests/data/scenarios/two-guests.ini > "$VBED_TEST_TMP/long.ini"
log=$VBED_TEST_TMP/log
"$VBED" run --id e2ekq -o "$VBED_TEST_TMP/res" "$VBED_TEST_TMP/long.ini" >"$log" 2>&1 &
pid=$!
wait_for_log "$log" $pid 'measure: ' 1 400
wait_guest_proc vbed-e2ekq-001-guest-2 sysbench # the measure phase runs there
qemu=$(pgrep -f "qemu-system.*vbed-e2ekq-001-guest-2") || fail "no QEMU of guest 2 in the measure phase"
kill -KILL $qemu
wait $pid
rc=$?
cat "$log"
[ $rc -eq 1 ] || fail "exit code $rc, expected 1"
grep -q "in phase measure: .*vbed-e2ekq-001-guest-2" "$log" || fail "the reason does not name the phase and the guest"
assert_nothing_left e2ekq
r=$(latest_results "$VBED_TEST_TMP/res")
jq -c . "$r/samples.jsonl" >/dev/null || fail "samples.jsonl has a line that does not parse"
[ "$(jq -r 'select(.metric == "tps" and .labels.guest == 1) | .value' "$r/samples.jsonl" | wc -l)" -eq 1 ] ||
  fail "guest 1's figures were not kept"
[ "$(jq -r 'select(.metric == "tps" and .labels.guest == 2) | .value' "$r/samples.jsonl" | wc -l)" -eq 0 ] ||
  fail "guest 2 has a TPS although it died"
[ "$(jq -r 'select(.metric == "boot_to_ready_s") | .value' "$r/samples.jsonl" | wc -l)" -eq 2 ] ||
  fail "the figures measured before the fault were not kept"
jq -e '.status == "failed" and .runs[0].status == "failed" and (.runs[0].reason | test("measure.*guest-2"))' \
  "$r/meta.json" >/dev/null || fail "meta.json does not mark the run failed with its reason"
[ -s "$r/runs/001-guest/guest-1/sysbench-measure.out" ] || fail "guest 1's raw log was not kept"
[ -s "$r/runs/001-guest/guest-2/console.log" ] || fail "guest 2's console log was not kept"
