# compare-cli.sh: `vbed compare` of the two fixtures (quickstart-cache
# against the interrupted quickstart-trx2) in every format equals its golden
# file under tests/data/report (test_report_compare.c checks the same files
# and the Welch figures); and its exit codes. VBED_UPDATE_GOLDEN=1 rewrites
# the table, json and markdown files.
. "$VBED_SRC/tests/lib.sh"

a=tests/data/results/quickstart-cache
b=tests/data/results/quickstart-trx2-interrupted
golden=tests/data/report/compare
for f in table:table csv:csv json:json markdown:md; do
  format=${f%%:*} ext=${f#*:}
  expect_rc 0 "$VBED" compare --format="$format" "$a" "$b"
  check_golden "$golden.$ext" "$out"
done
# B's cut-short last line is reported, and the comparison still made
contains "$err" "quickstart-trx2-interrupted/samples.jsonl:645:" || fail "the cut line was not reported"

expect_rc 0 "$VBED" compare "$a" "$b"
contains "$out" "guest.disk_cache=writeback     guest    3   29.76    2   34.05      +14.4%  0.0007  significant" || fail "significant row"
contains "$out" "not significant" || fail "no 'not significant'"
contains "$out" "too few repeats" || fail "no 'too few repeats'"
contains "$out" "not comparable with KVM" || fail "no TCG warning"
# nothing is written into the results directories
[ -e "$a/summary.csv" ] || [ -e "$b/report.html" ] && fail "compare wrote into a results directory"

# the same directory twice: nothing differs
expect_rc 0 "$VBED" compare --format=csv "$a" "$a"
[ "$(printf '%s\n' "$out" | grep -c ',0,.*not significant$')" -eq 6 ] || fail "self-comparison: $out"

expect_rc 0 "$VBED" compare --help
contains "$out" "usage: vbed compare" || fail "--help"
expect_rc 2 "$VBED" compare "$a"
contains "$err" "compare takes two results directories" || fail "one operand"
expect_rc 2 "$VBED" compare --no-html "$a" "$b"
expect_rc 2 "$VBED" compare -f yaml "$a" "$b"
expect_rc 2 "$VBED" compare "$a" "$VBED_TEST_TMP/nothing"
contains "$err" "Cannot read the results directory '$VBED_TEST_TMP/nothing'" || fail "missing B"
[ -z "$out" ] || fail "printed a comparison with a missing side"
echo "vbed compare: formats, verdicts and exit codes as expected"
