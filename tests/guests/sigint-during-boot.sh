# sigint-during-boot.sh: SIGINT while the guests boot (--cold: a restored
# guest has no boot to interrupt; tests/guests/restore.sh interrupts a
# restored one): vbed exits 130 and leaves no domain, no disk and no qemu
# process; a second SIGINT does not skip the cleanup.
# vbed-test: paired 8 (tests/run-tests.sh: it may run beside another)
. "$VBED_SRC/tests/lib.sh"
need_libvirt

log=$VBED_TEST_TMP/log
"$VBED" run --cold --id e2eint -o "$VBED_TEST_TMP/res" --boot-only tests/data/scenarios/two-guests.ini >"$log" 2>&1 &
pid=$!
wait_for_log "$log" $pid "vbed-e2eint-001-guest-2: booting" 1 150
virsh -c qemu:///system list --name | grep -q vbed-e2eint || fail "no domain running before SIGINT"
kill -INT $pid
sleep 0.2
kill -INT $pid 2>/dev/null
wait $pid
rc=$?
cat "$log"
[ $rc -eq 130 ] || fail "exit code $rc after SIGINT, expected 130"
grep -q "interrupted by SIGINT" "$log" || fail "no word of the interruption"
assert_nothing_left e2eint
