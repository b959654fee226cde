# steady.sh: "steady" is said only where shown. A live quickstart's
# results (tests/data/results/quickstart-counts) with the tuned arm's two
# targets labelled steady = unshown -- their drift neither beyond its 95 %
# CI nor within +-5 % of it, as every guest here under TCG (CIs of +-150 to
# +-250 % over 30 s) -- say "not shown" for tuned, in the table and the
# JSON, and still "yes" for the host arm; a label outside the set is
# refused as a bad line.
. "$VBED_SRC/tests/lib.sh"
need_prog jq

res=$VBED_TEST_TMP/steady
mkdir "$res"
cp tests/data/results/quickstart-counts/meta.json tests/data/results/quickstart-counts/scenario.ini "$res/"
jq -c 'if .metric == "steady_state_drift" and .labels.arm == "tuned" then .labels.steady = "unshown" else . end' \
  tests/data/results/quickstart-counts/samples.jsonl > "$res/samples.jsonl"
expect_rc 0 "$VBED" report --no-html "$res"
echo "$out" | grep -Eq '^  tuned +no cache .* not shown \(1 of 1 runs\) ' || fail "tuned is not 'not shown': $(echo "$out" | grep -E '^  tuned +no cache')"
echo "$out" | grep -Eq '^  host +host page cache .*\(auto\)  yes ' || fail "the host arm is no longer steady"
expect_rc 0 "$VBED" report --no-html --format=json "$res"
echo "$out" | jq -e '[.variants[0].arms[] | {(.name): .runs_not_shown_steady}] | add == {"host": 0, "guest": 0, "tuned": 1, "tuned_memory": 0}' >/dev/null ||
  fail "runs_not_shown_steady: $(echo "$out" | jq -c '[.variants[0].arms[] | .runs_not_shown_steady]')"
# a label outside yes / no / unshown is a bad line
jq -c 'if .metric == "steady_state_drift" and .labels.arm == "tuned" then .labels.steady = "maybe" else . end' \
  tests/data/results/quickstart-counts/samples.jsonl > "$res/samples.jsonl"
expect_rc 0 "$VBED" report --no-html "$res"
contains "$err" "labels.steady: 'maybe' is not one of yes, no, unshown; line skipped" || fail "a bad steady label was not refused: $err"
