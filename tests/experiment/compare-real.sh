# compare-real.sh: two real runs of the same scenario (the host arm, three
# repeats each) compared: per variant and arm, both means, the difference
# and a significance verdict from Welch's t-test.
. "$VBED_SRC/tests/lib.sh"
need_root
need_prog jq

for side in a b; do
  expect_rc 0 "$VBED" run --id e2ecmp$side -o "$VBED_TEST_TMP/$side" tests/data/scenarios/host-repeats.ini
  assert_nothing_left e2ecmp$side
done
a=$(latest_results "$VBED_TEST_TMP/a")
b=$(latest_results "$VBED_TEST_TMP/b")
[ "$(jq -r 'select(.metric == "tps_arm") | .value' "$a/samples.jsonl" | wc -l)" -eq 3 ] || fail "A: not 3 repeats"
expect_rc 0 "$VBED" report "$a"
echo "$out" | grep -Eq '^  host +host +- +3 ' || fail "report of A: not n=3 for the host arm"
expect_rc 0 "$VBED" compare "$a" "$b"
echo "$out"
contains "$out" "host" || fail "compare lists no host arm"
case $out in
  *"not significant"*|*significant*) ;;
  *) fail "compare gives no significance verdict" ;;
esac
expect_rc 0 "$VBED" compare --format=csv "$a" "$b"
echo "$out" | head -n 1 | grep -q "p" || fail "csv has no header"
[ "$(echo "$out" | wc -l)" -eq 2 ] || fail "csv: expected one row for one variant x arm"
