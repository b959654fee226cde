# boot-timeout.sh: a guest that cannot be ready in time fails fast with its
# phase named, its console log kept, and nothing left behind.
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
echo "failed after $took s"
# fast: a 1 s limit and teardown, not a boot (a cold boot here takes 60 s or more)
[ $took -le 30 ] || fail "a 1 s timeout_boot took $took s to fail"
