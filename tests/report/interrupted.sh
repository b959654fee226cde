# interrupted.sh: a run killed while writing samples.jsonl (the fixture's
# last line is cut short): `vbed report` reads it line by line, reports the
# cut line as FILE:LINE once, uses every other line, and says what the
# interruption cost (the run that was cut, the runs that never started).
. "$VBED_SRC/tests/lib.sh"

res=$VBED_TEST_TMP/interrupted
cp -r tests/data/results/quickstart-trx2-interrupted "$res"
# the fixture really is cut: its last line does not end in a newline or a brace
[ "$(tail -c 1 "$res/samples.jsonl" | od -An -c | tr -d ' ')" != '}' ] || fail "fixture not cut"
lines=$(wc -l < "$res/samples.jsonl")

expect_rc 0 "$VBED" report --no-html "$res"
want="$res/samples.jsonl:$((lines + 1)): the line ends inside its JSON object (cut short); line skipped (the last line of an interrupted run)"
contains "$err" "$want" || fail "the cut line was not reported as FILE:LINE"
[ "$(printf '%s\n' "$err" | grep -c 'samples.jsonl:')" -eq 1 ] || fail "more than one line reported: $err"
diff -u tests/data/report/quickstart-trx2-interrupted.table <(printf '%s\n' "$out") ||
  fail "differs from tests/data/report/quickstart-trx2-interrupted.table"
contains "$out" "run 7 (tuned, repeat 2): interrupted; its figures are not counted." || fail "run 7"
contains "$out" "5 planned runs did not run: 8, 9, 10, 11, 12." || fail "pending runs"
# every complete line counted: host runs 1 and 5 give n = 2
contains "$out" "host   host        -  2    621.40" || fail "host row"
[ -s "$res/summary.csv" ] || fail "no summary.csv"

# an even shorter cut: half of a line, then nothing
head -c -300 "$res/samples.jsonl" > "$res/cut" && mv "$res/cut" "$res/samples.jsonl"
expect_rc 0 "$VBED" report --no-html --format=csv "$res"
contains "$err" "samples.jsonl:$lines: " || fail "the new cut line $lines was not reported"
echo "an interrupted run's samples are read line by line"
