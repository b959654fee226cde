# repeats-auto.sh: repeats = auto repeats a run until its TPS has a CV at
# most cv_target (after at least three repeats), or repeats_max: a generous
# target stops at three repeats, an impossible one at the cap.
. "$VBED_SRC/tests/lib.sh"
need_root
need_prog jq

count() { jq -r 'select(.metric == "tps_arm") | .value' "$(latest_results "$1")/samples.jsonl" | wc -l; }

sed 's/^repeats     = 3/repeats     = auto\ncv_target   = 100\nrepeats_max = 5/' \
  tests/data/scenarios/host-repeats.ini > "$VBED_TEST_TMP/loose.ini"
expect_rc 0 "$VBED" run --id e2eautoa -o "$VBED_TEST_TMP/a" "$VBED_TEST_TMP/loose.ini"
contains "$err" "within 100% after 3 repeats" || fail "no word of convergence"
[ "$(count "$VBED_TEST_TMP/a")" -eq 3 ] || fail "cv_target 100%: $(count "$VBED_TEST_TMP/a") repeats, expected 3"

sed 's/^repeats     = 3/repeats     = auto\ncv_target   = 1\nrepeats_max = 4/' \
  tests/data/scenarios/host-repeats.ini > "$VBED_TEST_TMP/strict.ini"
sed -i 's/^duration    = 5s/duration    = 3s/' "$VBED_TEST_TMP/strict.ini"
expect_rc 0 "$VBED" run --id e2eautob -o "$VBED_TEST_TMP/b" "$VBED_TEST_TMP/strict.ini"
n=$(count "$VBED_TEST_TMP/b")
# a 1% CV may happen by chance after 3 repeats; otherwise the cap, 4
[ "$n" -eq 4 ] || [ "$n" -eq 3 ] || fail "cv_target 1%, repeats_max 4: $n repeats"
assert_nothing_left e2eautoa
assert_nothing_left e2eautob
