# recorded.sh: `vbed report` on a results directory recorded from a real
# quickstart run under TCG here (two repeats; raw logs left out): every
# format equals its golden file (VBED_UPDATE_GOLDEN=1 rewrites them), and
# the table says what a reader looks for.
. "$VBED_SRC/tests/lib.sh"

name=quickstart-tcg-recorded
report_goldens $name
expect_rc 0 "$VBED" report --no-html "$res"
contains "$out" "not comparable with KVM" || fail "no TCG warning"
for arm in host guest tuned; do
  echo "$out" | grep -Eq "^  $arm +(host|guest) +[-12] +2 " || fail "no row with n=2 for arm $arm"
done
contains "$out" "Ratios of mean TPS: guest/host " || fail "no Guest/Host ratio"
contains "$out" "tuned/guest " || fail "no tuned/Guest ratio"
[ "$(wc -l < "$res/summary.csv")" -eq 4 ] || fail "summary.csv: expected a header and 3 rows"
# the numbers, apart from the golden files: the report's TPS, TPS per guest
# and ratios recomputed from samples.jsonl and meta.json
need_prog python3
report_matches_samples "$res" || fail "the report's figures are not the samples'"
