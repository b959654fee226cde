# guests.sh: `vbed report` on quickstart-guests, a fixture in the format
# vbed writes (make-fixtures.py) with guests = 1, 2 on the guest arm and
# every figure of issue 9: every format equals its golden file
# (VBED_UPDATE_GOLDEN=1 rewrites them), and the table says what a reader
# looks for: scaling and consolidation efficiency, per-guest ratios, where
# the data fits, warm-up and steady state, noise with its limits, the pin
# state and the run order.
. "$VBED_SRC/tests/lib.sh"

name=quickstart-guests
report_goldens $name

expect_rc 0 "$VBED" report --no-html "$res"
t=$out
contains "$t" "run order: shuffle (seed 4242)" || fail "no run order"
# scaling: 1 guest alone 15.27 TPS, 2 together 21.18 = 2 x 10.59: efficiency 0.693
contains "$t" "Scaling with the number of guests" || fail "no scaling table"
echo "$t" | grep -Eq '^  guest +- +1 +2 +15\.27 +15\.27 +1\.000$' || fail "scaling row for 1 guest"
echo "$t" | grep -Eq '^  guest +- +2 +2 +21\.18 +10\.59 +0\.693$' || fail "scaling row for 2 guests"
# variant 2: 2 guests against 1: per guest; variant 1: equal counts: aggregate
contains "$t" "guest/host 0.025 aggregate, tuned/host 0.040 aggregate, tuned/guest 1.561 aggregate" || fail "variant 1 ratios"
contains "$t" "guest/host 0.018 per guest, tuned/host 0.040 aggregate, tuned/guest 2.252 per guest" || fail "variant 2 ratios"
# conditions
echo "$t" | grep -Eq '^  tuned +buffer pool +25\.0 s \(auto\) +yes ' || fail "tuned: fits in the buffer pool"
echo "$t" | grep -Eq '^  guest +guest page cache .* no \(1 of 2 runs\) .* not pinned$' || fail "guest 2: not steady, not pinned"
echo "$t" | grep -Eq '^  host +host page cache .* 7\.5% ! .* noisy +- +pinned$' || fail "host: noisy"
contains "$t" "arm tuned, variants 1, 2: the working set fits in the buffer pool (24.0 MiB in a 256.0 MiB buffer pool): the disk cache mode cannot matter here." || fail "fits note"
contains "$t" "run 3 (host, repeat 1): the host lost 7.5% of its CPU time to steal during the measure phase (limit 5%)" || fail "steal note"
contains "$t" "run 8 (guest, repeat 2), guest 2: the warm-up reached its cap (120 s) before TPS was steady." || fail "warm-up note"
# a figure that was not available is n/a (empty in csv, null in json), never 0
expect_rc 0 "$VBED" report --no-html --format=csv "$res"
head -n 1 <<<"$out" | grep -q ',consolidation_efficiency,' || fail "csv: no consolidation_efficiency column"
[ "$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
     $3 == "host" { print "[" $col["guest_steal_pct_max"] "]" }' <<<"$out" | sort -u)" = "[]" ] ||
  fail "csv: the host arm's guest steal is not empty"
expect_rc 0 "$VBED" report --no-html --format=json "$res"
contains "$out" '"guest_steal_pct_max": null' || fail "json: no null figure"
# an efficiency above 1 is said to be the machine's, not consolidation's:
# none here (0.693); the guest arm's 2-guest TPS doubled gives 1.387 and the note
contains "$t" "consolidation efficiency" 2>/dev/null && fail "a superlinear note on an efficiency of 0.693"
sup=$VBED_TEST_TMP/superlinear
cp -r "$res" "$sup"
jq -c 'if .metric == "tps_arm" and .labels.arm == "guest" and .labels.variants == [2]
       then .value *= 2 else . end' "$res/samples.jsonl" >"$sup/samples.jsonl"
expect_rc 0 "$VBED" report --no-html "$sup"
echo "$out" | grep -Eq '^  guest +- +2 +2 +42\.35 +21\.18 +1\.387$' || fail "doubled: scaling row for 2 guests"
contains "$out" "arm guest, 2 guests: consolidation efficiency 1.387, above 1: 2 guests together did more than 2 times one guest alone" ||
  fail "no note on an efficiency of 1.387"
expect_rc 0 "$VBED" report --no-html --format=json "$sup"
[ "$(jq '[.notes[] | select(.kind == "superlinear")] | length' <<<"$out")" -eq 1 ] || fail "json: not one superlinear note"
echo "guests as an axis: scaling, fair ratios, conditions and notes as expected"
