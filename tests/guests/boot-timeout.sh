# boot-timeout.sh: a guest that cannot be ready in time fails fast with its
# phase named, its console log kept, and nothing left behind.
# vbed-test: paired 21 (tests/run-tests.sh: it may run beside another)
. "$VBED_SRC/tests/lib.sh"
need_libvirt

sed 's/^\[guest\]/[guest]\ntimeout_boot = 1s/' tests/data/scenarios/one-guest.ini > "$VBED_TEST_TMP/t.ini"
start=$SECONDS
expect_rc 1 "$VBED" run --cold --id e2etmo -o "$VBED_TEST_TMP/res" --boot-only "$VBED_TEST_TMP/t.ini"
echo "$err"
contains "$err" "vbed-e2etmo-001-guest-1 failed in phase boot: not done within 1 s (timeout_boot)" || fail "phase not named"
contains "$err" "1 run failed" || fail "the run is not reported failed"
r=$(latest_results "$VBED_TEST_TMP/res")
[ -f "$r/runs/001-guest/guest-1/console.log" ] || fail "console log not kept"
jq -e '.status == "failed" and .runs[0].status == "failed"' "$r/meta.json" >/dev/null || fail "meta.json does not say failed"
assert_nothing_left e2etmo
took=$((SECONDS - start))
# fast: the guest failed 1-2 s after its start (vbed's progress line), not
# after a boot (a cold boot here takes 55 s or more); and the whole command,
# with the postmortem that reads the dead guest's journal off its disk
# (libguestfs, 15-20 s under TCG), well under a boot and a postmortem
at=$(sed -n 's/.*vbed-e2etmo-001-guest-1: FAILED in boot: .* (\([0-9]*\) s)$/\1/p' <<<"$err" | head -n 1)
echo "the guest failed $at s after its start; the command after $took s"
[ -n "$at" ] && [ "$at" -le 5 ] || fail "a 1 s timeout_boot failed the guest ${at:-?} s after its start"
[ $took -le 60 ] || fail "a 1 s timeout_boot took $took s to fail"
