# answer-first.sh: a report starts with what was found and reads as prose.
# On the recorded 3-repeat quickstart (tests/data/results/quickstart-3-repeats)
# the text report's first 12 lines hold the answer -- each guest arm's loss
# per guest against the host with its 95 % CIs, the untuned guest's largest
# part, each tuning's win or loss against the untuned guest with its CI --
# and the figures are the report's own: the loss is 1 - the ratio in the
# JSON, the largest part the split's. On every recorded results directory
# no line outside a table is wider than 160 characters and no paragraph has
# more than 60 words ("+-" is not a word); the method's paragraphs appear
# only with --explain.
. "$VBED_SRC/tests/lib.sh"
need_prog jq

# copies: vbed report writes summary.csv into the directory it reports on
res=$VBED_TEST_TMP/qs3
cp -r tests/data/results/quickstart-3-repeats "$res"
expect_rc 0 "$VBED" report --no-html "$res"
head=$(printf '%s\n' "$out" | head -12)
echo "$head"
for arm in guest tuned tuned_memory; do
  loss=$("$VBED" report --no-html --format=json "$res" 2>/dev/null |
    jq -r --arg a $arm '.variants[0].arms[] | select(.name == $a) | (1 - .ratio_vs_host) * 100 | round')
  printf '%s\n' "$head" | grep -Eq "^  $arm loses $loss % of the host's TPS per guest: [0-9.]+ \+- [0-9.]+ against 175 \+- 16 \(95 % CIs\)\.$" ||
    fail "the first 12 lines do not give $arm's loss ($loss %) with its CIs"
done
printf '%s\n' "$head" | grep -q "^  Why guest loses it: CPU (virtualization/emulation) 59 points" ||
  fail "the first 12 lines do not name the largest part of the untuned guest's loss (59.4 points in the split)"
printf '%s\n' "$head" | grep -Eq "^  tuned against guest: -13 % TPS per guest; at one machine speed -10 %, 95 % CI -26 to \+8 %: not beyond noise\.$" ||
  fail "the first 12 lines do not give tuned's change against guest with its CI"
printf '%s\n' "$head" | grep -Eq "^  tuned_memory against guest: \+46 % TPS per guest; at one machine speed \+35 %, 95 % CI \+12 to \+63 %: beyond noise\.$" ||
  fail "the first 12 lines do not give tuned_memory's change against guest with its CI"
# the predictions' verdicts, after it
contains "$out" "  tuned predicted 6.66 TPS per guest, measured 6.06: not judged (CIs too wide)" || fail "no verdict for tuned"
contains "$out" "  tuned_memory predicted 9.8 TPS per guest, measured 10.2: the prediction agrees" || fail "no verdict for tuned_memory"
# the method only on request
case $out in *"Where the time goes: per target, a chain"*) fail "the method's paragraph is in the report" ;; esac
contains "$out" "Every figure is defined in docs/method.md" || fail "the report does not name docs/method.md"
[ -f "$VBED_SRC/docs/method.md" ] || fail "docs/method.md is missing"
expect_rc 0 "$VBED" report --no-html --explain "$res"
contains "$out" "Where the time goes: per target, a chain" || fail "--explain does not print the method"
# prose: lines and paragraphs, in every recorded results directory
for src in tests/data/results/*/; do
  d=$VBED_TEST_TMP/$(basename "$src")
  [ -d "$d" ] || cp -r "$src" "$d"
  expect_rc 0 "$VBED" report --no-html --format=markdown "$d"
  bad=$(printf '%s\n' "$out" | awk '
    function words(  n, i) { n = 0; for (i = 1; i <= NF; i++) if ($i != "+-" && $i != "-" && $i != "--") n++; return n }
    /^\|/ { next }
    length($0) > 160 { print "wide: " substr($0, 1, 80) }
    /^  +[^ ]/ && prev { w += words(); next }
    { if (w > 60) print w " words: " substr(para, 1, 80); w = words(); para = $0; prev = NF > 0 }
    END { if (w > 60) print w " words: " substr(para, 1, 80) }')
  [ -z "$bad" ] || fail "$d: $bad"
done
# report.html draws predicted against measured per tuned arm, with "no change"
need_prog gnuplot
expect_rc 0 "$VBED" report --format=csv "$res"
svg=$(awk '/<figure>/ {buf = ""} {buf = buf $0 "\n"} /Predicted \(circle\) and measured \(square\)/ {print buf; exit}' "$res/report.html")
[ "$(printf '%s' "$svg" | grep -o '<circle ' | wc -l)" -eq 2 ] || fail "the prediction plot has not one circle per tuned arm"
[ "$(printf '%s' "$svg" | grep -o '<rect ' | wc -l)" -eq 2 ] || fail "the prediction plot has not one square per tuned arm"
contains "$svg" ">no change</text>" || fail "the prediction plot lacks the no-change line"
