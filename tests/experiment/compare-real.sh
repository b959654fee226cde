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
# the host arm's row ends in a verdict of the t-test (3 repeats a side)
echo "$out" | grep -Eq '^  default +host +3 +[0-9.]+ +3 +[0-9.]+ +[-+][0-9.]+% +[0-9.e-]+ +(significant|not significant)$' ||
  fail "compare gives no significance verdict for the host arm"
expect_rc 0 "$VBED" compare --format=csv "$a" "$b"
header='variant_label,arm,n_a,tps_mean_a,n_b,tps_mean_b,diff_pct,welch_t,welch_df,welch_p,verdict'
[ "$(echo "$out" | head -n 1)" = "$header" ] || fail "csv header: '$(echo "$out" | head -n 1)', expected '$header'"
[ "$(echo "$out" | wc -l)" -eq 2 ] || fail "csv: expected one row for one variant x arm"
echo "$out" | tail -n 1 | grep -Eq '^default,host,3,[0-9.]+,3,[0-9.]+,[-0-9.e]+,[-0-9.e]+,[0-9.e]+,[0-9.e-]+,(significant|not significant)$' ||
  fail "csv row: $(echo "$out" | tail -n 1)"
