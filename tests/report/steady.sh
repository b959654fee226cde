# steady.sh: "steady" is said only where the figures show it, whatever the
# label next to them says. The reader re-derives each measure phase's label
# from its drift and the drift's 95 % CI (results/steadyrule.h):
#  - a live quickstart's results (tests/data/results/quickstart-counts),
#    labelled "yes" by a vbed before "not shown" existed, with CIs of +-17 %
#    (host) to +-247 % (guests under TCG over 20 s): every arm is "not shown"
#    in the JSON, host and tuned in the table (the other two did not finish
#    their warm-up steady: "no"), and stderr names the first label that gave way;
#  - the host arm's figures changed to a drift of +20 % with a CI of +-5 %
#    under its label "yes": it drifted ("no", a note, runs_drifted);
#  - its figures changed to +1 % +- 2 % under a planted "no": "yes";
#  - a drift without its CI (results of a vbed before it) keeps its label;
#  - a label outside the set is refused as a bad line.
. "$VBED_SRC/tests/lib.sh"
need_prog jq

src=tests/data/results/quickstart-counts
res=$VBED_TEST_TMP/steady
mkdir "$res"
cp $src/meta.json $src/scenario.ini "$res/"
row() { echo "$out" | grep -E "^  $1 +(host page cache|guest page cache|no cache|buffer pool) "; }

cp $src/samples.jsonl "$res/"
expect_rc 0 "$VBED" report --no-html "$res"
# (guest and tuned_memory: "no", a target's warm-up reached its cap unsteady)
for arm in host tuned; do
  row "$arm" | grep -Eq ' not shown \(1 of 1 runs\) ' || fail "$arm is not 'not shown': $(row "$arm")"
done
contains "$err" "labels.steady 'yes' is not what its drift (-0.068) and the drift's 95 % CI (+-0.174) say, 'unshown'; the figures' verdict is taken here and in 6 more line(s)." ||
  fail "the labels that gave way were not named: $err"
expect_rc 0 "$VBED" report --no-html --format=json "$res"
echo "$out" | jq -e '[.variants[0].arms[] | {(.name): [.runs_not_shown_steady, .runs_drifted]}] | add ==
    {"host": [1, 0], "guest": [1, 0], "tuned": [1, 0], "tuned_memory": [1, 0]}' >/dev/null ||
  fail "runs_not_shown_steady, runs_drifted: $(echo "$out" | jq -c '[.variants[0].arms[] | [.name, .runs_not_shown_steady, .runs_drifted]]')"

# the host arm's figures, its label left as it is
host() { # drift, CI, label
  jq -c --argjson d "$1" --argjson h "$2" --arg l "$3" 'if .labels.arm == "host" and .metric == "steady_state_drift"
      then .value = $d | .labels.steady = $l elif .labels.arm == "host" and .metric == "steady_state_drift_ci"
      then .value = $h else . end' $src/samples.jsonl > "$res/samples.jsonl"
}
host 0.20 0.05 yes
expect_rc 0 "$VBED" report --no-html "$res"
row host | grep -Eq ' no \(1 of 1 runs\) ' || fail "a drift of +20 % +- 5 % labelled yes is not 'no': $(row host)"
contains "$out" "TPS drifts by +0.200 over the measure phase" || fail "no note of the drift"
expect_rc 0 "$VBED" report --no-html --format=json "$res"
echo "$out" | jq -e '.variants[0].arms[] | select(.name == "host") | .runs_drifted == 1' >/dev/null ||
  fail "the host arm's runs_drifted: $(echo "$out" | jq -c '[.variants[0].arms[] | [.name, .runs_drifted]]')"
host 0.01 0.02 no
expect_rc 0 "$VBED" report --no-html "$res"
row host | grep -Eq '  yes  ' || fail "a drift of +1 % +- 2 % labelled no is not 'yes': $(row host)"
contains "$err" "labels.steady 'no' is not what its drift (+0.010) and the drift's 95 % CI (+-0.020) say, 'yes'" ||
  fail "the planted 'no' was not named: $err"
# without its CI, the label stands (a drift of 3 % labelled no: drifted)
jq -c 'select(.metric != "steady_state_drift_ci") | if .labels.arm == "host" and .metric == "steady_state_drift"
    then .value = 0.03 | .labels.steady = "no" else . end' $src/samples.jsonl > "$res/samples.jsonl"
expect_rc 0 "$VBED" report --no-html "$res"
row host | grep -Eq ' no \(1 of 1 runs\) ' || fail "a label without its CI did not stand: $(row host)"
case $err in *"is not what its drift"*) fail "a drift without its CI was judged again: $err" ;; esac

# a label outside yes / no / unshown is a bad line
jq -c 'if .metric == "steady_state_drift" and .labels.arm == "tuned" then .labels.steady = "maybe" else . end' \
  $src/samples.jsonl > "$res/samples.jsonl"
expect_rc 0 "$VBED" report --no-html "$res"
contains "$err" "labels.steady: 'maybe' is not one of yes, no, unshown; line skipped" || fail "a bad steady label was not refused: $err"
