# scaling.sh: guests = 1, 2 for real: two variants, one guest alone and two
# together; the report shows the scaling table (aggregate and per-guest TPS
# against N, consolidation efficiency = TPS(2) / (2 x TPS(1))) and its plot,
# with figures that agree with the samples; nothing is left.
. "$VBED_SRC/tests/lib.sh"
need_libvirt
need_prog jq
need_prog gnuplot

res=$VBED_TEST_TMP/res
expect_rc 0 "$VBED" run --id e2escl -o "$res" tests/data/scenarios/scaling.ini
assert_nothing_left e2escl
r=$(latest_results "$res")
t1=$(jq -r 'select(.metric == "tps_arm" and .labels.variants == [1]) | .value' "$r/samples.jsonl")
t2=$(jq -r 'select(.metric == "tps_arm" and .labels.variants == [2]) | .value' "$r/samples.jsonl")
awk -v a="$t1" -v b="$t2" 'BEGIN { exit !(a > 0 && b > 0) }' || fail "TPS: 1 guest '$t1', 2 guests '$t2'"
eff=$(awk -v a="$t1" -v b="$t2" 'BEGIN { printf "%.3f", b / (2 * a) }')
echo "1 guest: $t1 tx/s; 2 guests: $t2 tx/s; efficiency $eff"

expect_rc 0 "$VBED" report "$r"
contains "$out" "Scaling with the number of guests" || fail "no scaling table"
echo "$out" | grep -Eq "^  guest +- +2 +1 +[0-9.]+ +[0-9.]+ +$eff\$" ||
  fail "the scaling table's efficiency for 2 guests is not $eff"
[ -s "$r/scaling.svg" ] || fail "no scaling.svg"
grep -q "<svg" "$r/scaling.svg" || fail "scaling.svg is not an SVG"
