# fault-agent-stopped.sh: the guest agent stopped inside a guest during its
# setup (systemctl stop, through the agent itself). The run fails after
# timeout_agent of silence (15 s here) with a reason that names the guest,
# the phase (setup, or db when the stop lands after the datadir was made)
# and the silent agent -- not after the phase's 300 s limit -- vbed exits 1, the
# host arm measured before stays in samples.jsonl with its raw log, the
# guest's console log and journal are kept, and nothing of the run is left.
# vbed-test: paired 48 (tests/run-tests.sh: it may run beside another)
. "$VBED_SRC/tests/lib.sh"
need_libvirt
need_prog jq

log=$VBED_TEST_TMP/log
sed 's/^\[global\]$/[global]\ntimeout_agent = 15s/' tests/data/scenarios/host-and-guest.ini > "$VBED_TEST_TMP/t.ini"
grep -q '^timeout_agent = 15s' "$VBED_TEST_TMP/t.ini" || fail "host-and-guest.ini has no [global] line"
"$VBED" run --id e2eagent -o "$VBED_TEST_TMP/res" "$VBED_TEST_TMP/t.ini" >"$log" 2>&1 &
pid=$!
wait_for_log "$log" $pid 'guest-1: setup: ' 1 400
virsh -c qemu:///system qemu-agent-command vbed-e2eagent-002-guest-1 \
  '{"execute":"guest-exec","arguments":{"path":"/bin/systemctl","arg":["stop","qemu-guest-agent"]}}' >/dev/null ||
  fail "cannot stop the guest agent"
stopped=$SECONDS
wait $pid
rc=$?
cat "$log"
[ $rc -eq 1 ] || fail "exit code $rc, expected 1"
grep -Eq "vbed-e2eagent-002-guest-1 failed in phase (setup|db): the guest agent stopped answering \(no answer for 1[5-9] s, timeout_agent\)" "$log" ||
  fail "the reason does not name the guest, the phase and the silent agent"
assert_nothing_left e2eagent
r=$(latest_results "$VBED_TEST_TMP/res")
assert_host_arm_kept "$r"
jq -e '.runs[1].status == "failed" and (.runs[1].reason | test("phase (setup|db): the guest agent stopped"))' \
  "$r/meta.json" >/dev/null || fail "meta.json does not mark the guest run failed with its reason"
[ -s "$r/runs/002-guest/guest-1/console.log" ] || fail "the guest's console log was not kept"
# the journal read out of its disk is the guest's own: it holds the boot
# that started the agent (written before the ready guest was saved); the
# stop is there only where the guest wrote it back before it was destroyed
# (one run of two here had it)
j=$r/runs/002-guest/guest-1/journal.txt
[ -s "$j" ] || fail "the guest's journal was not kept"
grep -qi "qemu-guest-agent\|QEMU Guest Agent" "$j" || fail "the kept journal does not mention the guest agent"
took=$((SECONDS - stopped))
echo "vbed ended $took s after the agent was stopped"
# 15 s of silence, teardown and the journal's read-out (libguestfs under TCG:
# 20-30 s), not the phase's 300 s limit
[ $took -le 120 ] || fail "vbed ended only $took s after the agent was stopped"
