# restore.sh: guests restored from a saved ready guest (start = restore,
# the default; that two are restored at once, under their own names, and
# measure is tests/experiment/scaling.sh's): SIGINT while they are restored
# and set up leaves nothing (no domain, no disk, no copy of the save image);
# after SIGKILL of vbed in the measure phase the restored domains outlive it
# (a restored domain does not die with the connection, unlike a booted one:
# tests/experiment/fault-sigkill.sh) and `vbed clean` removes them and
# everything else of the session.
# vbed-test: paired 57 (tests/run-tests.sh: it may run beside another)
. "$VBED_SRC/tests/lib.sh"
need_libvirt
need_prog jq

t=$VBED_TEST_TMP

# SIGINT while the guests are restored and set up
log=$t/log2
"$VBED" run --id e2erss -o "$t/res2" tests/data/scenarios/two-guests.ini >"$log" 2>&1 &
pid=$!
wait_for_log "$log" $pid "vbed-e2erss-001-guest-2: \\(restoring\\|setup\\)" 1 300
kill -INT $pid
wait $pid
rc=$?
cat "$log"
[ $rc -eq 130 ] || fail "exit code $rc after SIGINT, expected 130"
assert_nothing_left e2erss
if ls /var/lib/vbed/pool 2>/dev/null | grep -q -- "^vbed-e2erss-.*-state.save"; then fail "a copy of the save image was left"; fi

# SIGKILL in the measure phase: the restored domains outlive vbed until clean
sed 's/^duration    = 10s/duration    = 5m/' tests/data/scenarios/two-guests.ini > "$t/long.ini"
log=$t/log3
"$VBED" run --id e2erkl -o "$t/res3" "$t/long.ini" >"$log" 2>&1 &
pid=$!
wait_for_log "$log" $pid 'measure: ' 1 300
wait_guest_proc vbed-e2erkl-001-guest-1 sysbench
kill -KILL $pid
wait $pid
# a domain that died with the connection would be gone within a second or two
for _ in $(seq 1 10); do
  pgrep -f "qemu-system.*vbed-e2erkl-" >/dev/null ||
    fail "the restored domains died with vbed's connection (expected them to outlive it until clean)"
  sleep 0.5
done
expect_rc 0 "$VBED" clean --session e2erkl
echo "$out"
contains "$out" "removed domain vbed-e2erkl-001-guest-1" || fail "vbed clean did not remove the restored domains"
assert_nothing_left e2erkl
