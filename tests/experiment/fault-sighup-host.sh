# fault-sighup-host.sh: SIGHUP (its terminal closed) in the host arm's measure phase: vbed exits 129
# and leaves no mariadbd, no datadir and no cgroup of the run.
# vbed-test: paired 6 (tests/run-tests.sh: it may run beside another)
. "$VBED_SRC/tests/lib.sh"
need_root
need_prog jq

sed 's/^duration    = 5s/duration    = 5m/' tests/data/scenarios/host-repeats.ini > "$VBED_TEST_TMP/long.ini"
log=$VBED_TEST_TMP/log
"$VBED" run --id e2ehup -o "$VBED_TEST_TMP/res" "$VBED_TEST_TMP/long.ini" >"$log" 2>&1 &
pid=$!
wait_for_log "$log" $pid 'measure: ' 1 120
wait_proc '^sysbench .*vbed-e2ehup-'
pgrep -f "mariadbd.*vbed-e2ehup-" >/dev/null || fail "no host arm mariadbd before SIGHUP"
kill -HUP $pid
wait $pid
rc=$?
cat "$log"
[ $rc -eq 129 ] || fail "exit code $rc, expected 129"
assert_nothing_left e2ehup
for root in /sys/fs/cgroup /sys/fs/cgroup/memory /sys/fs/cgroup/cpuset; do
  ls "$root" 2>/dev/null | grep -q "vbed-e2ehup-" && fail "cgroup left in $root"
done
r=$(latest_results "$VBED_TEST_TMP/res")
jq -e '.status == "interrupted"' "$r/meta.json" >/dev/null || fail "meta.json does not say interrupted"
