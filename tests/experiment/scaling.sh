# scaling.sh: guests = 1, 2 for real (tests/data/scenarios/scaling.ini:
# restored guests, the default): one guest alone, then two together.
#   restore: both guests of the 2-guest run were restored from the saved
#   ready guest under their own names (meta.json's guest_start, the
#   boot_to_ready_s samples labelled start=restored, a restore_s each, their
#   domain.xml and console logs), `vbed image list` shows the saved guest,
#   and MariaDB answered in each (its version);
#   at once: their start-to-ready spans overlap (guest_start's started_at and
#   ready_at), and their measure phases started within a second;
#   beside another test, on one CPU: the guests kept to it (placement);
#   drop_caches: the host's page cache after the drop is smaller than before
#   (host_cached_*_drop_bytes), in every run;
#   scaling: one tps_arm per variant and one tps per guest (1, then 2), the
#   aggregate the sum of its guests' mean TPS over the common window,
#   recomputed from their intervals (0.5 %), the consolidation
#   efficiency TPS(2) / (2 x TPS(1)) in the report's scaling table and plot;
#   two guests on two host CPUs cannot more than double one's, so above 1.05
#   the report says the machine's speed moved between the runs (this host's
#   CPUs move by 15-40 % between runs a minute apart: 1.13 and 1.41 seen);
#   nothing is left.
# Its checks are consistency (the aggregate against its guests' intervals,
# the report's efficiency against tps_arm, the note where it is above 1.05),
# order (start-to-ready spans, measure starts) and the page cache's drop:
# beside another test, on one CPU, the two guests share it and every check
# still means what it says (efficiency 0.21 there once every QEMU thread was
# kept to that CPU: 38.8 tx/s for one guest, 16.0 for two; the bound is
# (0, 2)).
# vbed-test: paired 82 (its checks are consistency and order: a neighbour cannot turn them)
. "$VBED_SRC/tests/lib.sh"
need_libvirt
need_prog jq
need_prog gnuplot
need_prog python3

res=$VBED_TEST_TMP/res
expect_rc 0 "$VBED" run --id e2escl -o "$res" tests/data/scenarios/scaling.ini
assert_nothing_left e2escl
r=$(latest_results "$res")
s=$r/samples.jsonl
m=$r/meta.json

# restored, under their own names, and ready
jq -e '[.runs[1].guest_start[].start] == ["restored", "restored"]' "$m" >/dev/null ||
  fail "the 2-guest run's guests were not both restored: $(jq -c .runs[1].guest_start "$m")"
[ "$(jq -r 'select(.metric == "boot_to_ready_s" and .labels.variants == [2] and .labels.start == "restored") | .value' "$s" | wc -l)" -eq 2 ] ||
  fail "boot_to_ready_s is not labelled start=restored for both guests"
for g in 1 2; do
  v=$(jq -r --argjson g $g 'select(.metric == "restore_s" and .labels.variants == [2] and .labels.guest == $g) | .value' "$s")
  awk -v v="$v" 'BEGIN { exit !(v ~ /^[0-9.]+([eE][-+]?[0-9]+)?$/ && v > 0) }' || fail "guest $g: restore_s is '$v'"
  grep -q "<name>vbed-e2escl-002-guest-$g</name>" "$r/runs/002-guest/guest-$g/domain.xml" ||
    fail "guest $g: the run's domain name is not its own"
  [ -s "$r/runs/002-guest/guest-$g/console.log" ] || fail "guest $g: no console log (vbed-setup writes to it)"
  contains "$err" "vbed-e2escl-002-guest-$g: ready: MariaDB 10.11" || fail "guest $g: MariaDB did not answer with its version"
done
expect_rc 0 "$VBED" image list
contains "$out" "+ saved ready guest" || fail "vbed image list does not show the saved ready guest"

# beside another test (run-tests.sh: taskset, a CPU of its own) the two
# guests cannot both be pinned, and stay on that CPU all the same: each
# guest run's placement names it as the guests' cpuset, read back from the
# running guests (vCPUs and emulator threads; a mismatch says "not applied")
if [ "$(nproc)" -lt "$(nproc --all)" ]; then
  mine=$(python3 -c 'import os; c = sorted(os.sched_getaffinity(0)); print(c[0] if len(c) == 1 else "%d-%d" % (c[0], c[-1]))')
  jq -e --arg c "$mine" '[.runs[].placement | .cpuset == $c and (.reason | test("not applied") | not)] |
                         length == 2 and all' "$m" >/dev/null ||
    fail "the guests did not stay on this test's CPUs ($mine): $(jq -c '[.runs[].placement]' "$m")"
  echo "placement: both runs' guests kept to CPU(s) $mine"
fi

# at once
jq -e '.runs[1].guest_start | (map(.started_at) | max) < (map(.ready_at) | min)' "$m" >/dev/null ||
  fail "the two guests did not start at once: $(jq -c '.runs[1].guest_start | map({started_at, ready_at})' "$m")"
skew=$(jq -r 'select(.metric == "measure_start_skew_s" and .labels.variants == [2]) | .value' "$s")
awk -v v="$skew" 'BEGIN { exit !(v ~ /^[0-9.e-]+$/ && v < 1) }' || fail "the guests' measure phases started $skew s apart"
echo "two guests: start-to-ready spans overlap; measure start skew $skew s"

# drop_caches dropped something, in every run
n_drop=0
while read -r before after; do
  n_drop=$((n_drop + 1))
  awk -v b="$before" -v a="$after" 'BEGIN { exit !(a < b) }' || fail "the host's page cache was $before bytes before drop_caches and $after after"
done < <(jq -rs '[.[] | select(.metric == "host_cached_before_drop_bytes" or .metric == "host_cached_after_drop_bytes")] |
              group_by(.labels.run)[] | [(.[] | select(.metric == "host_cached_before_drop_bytes") | .value),
              (.[] | select(.metric == "host_cached_after_drop_bytes") | .value)] | @tsv' "$s")
[ "$n_drop" -eq 2 ] || fail "drop_caches recorded in $n_drop runs, expected 2"

# scaling, from the samples
[ "$(jq -r 'select(.metric == "tps_arm") | .value' "$s" | wc -l)" -eq 2 ] || fail "not one tps_arm per variant"
for v in 1 2; do
  [ "$(jq -r --argjson v $v 'select(.metric == "tps" and .labels.variants == [$v]) | .value' "$s" | wc -l)" -eq $v ] ||
    fail "variant $v: not $v per-guest TPS samples"
  arm=$(jq -r --argjson v $v 'select(.metric == "tps_arm" and .labels.variants == [$v]) | .value' "$s")
  # the common window recomputed from the intervals: it starts when the last
  # guest's measure phase started and lasts measure_window_s; each guest's
  # mean over the intervals wholly inside it, summed. An interval's length
  # is the run's report_interval (meta.json), not the gap between two `t`s:
  # a report more than half an interval late under TCG prints the same
  # whole second twice (sysbench rounds t), and a gap of 0 there once let
  # the first interval in (CI: 54.07 against 55.15)
  step=$(jq -r --argjson v $v '[.runs[] | select(.variants == [$v]) | .config.report_interval][0]' "$m")
  [[ $step =~ ^[0-9]+s$ ]] || fail "variant $v: report_interval '$step' in meta.json"
  sum=$(V=$v S=$s STEP=${step%s} python3 - <<'PY'
import json, os, collections
v = int(os.environ["V"])
step = float(os.environ["STEP"])
iv = collections.defaultdict(list)
window = None
for line in open(os.environ["S"]):
    o = json.loads(line)
    if o["labels"].get("variants") != [v]:
        continue
    if o["metric"] == "measure_window_s":
        window = o["value"]
    if o["metric"] == "tps_interval" and o["labels"].get("phase") == "measure":
        t = o["labels"]["t"]
        iv[o["labels"]["guest"]].append((o["timestamp"] - t, t, o["value"]))
start = {g: x[0][0] for g, x in iv.items()}
ws = max(start.values())
we = ws + window
total = 0
for g, x in iv.items():
    inside = [tps for s0, t, tps in x if s0 + t - step >= ws - 0.01 and s0 + t <= we + 0.01]
    total += sum(inside) / len(inside)
print(total)
PY
)
  awk -v a="$arm" -v s="$sum" 'BEGIN { d = a - s; if (d < 0) d = -d; exit !(a > 0 && d <= 0.005 * a) }' ||
    fail "variant $v: tps_arm $arm is not the sum of its guests' TPS over the common window ($sum)"
done
t1=$(jq -r 'select(.metric == "tps_arm" and .labels.variants == [1]) | .value' "$s")
t2=$(jq -r 'select(.metric == "tps_arm" and .labels.variants == [2]) | .value' "$s")
eff=$(awk -v a="$t1" -v b="$t2" 'BEGIN { printf "%.3f", b / (2 * a) }')
echo "1 guest: $t1 tx/s; 2 guests: $t2 tx/s; efficiency $eff"
awk -v e="$eff" 'BEGIN { exit !(e > 0 && e < 2) }' || fail "consolidation efficiency $eff is outside (0, 2)"

expect_rc 0 "$VBED" report "$r"
contains "$out" "Scaling with the number of guests" || fail "no scaling table"
echo "$out" | grep -Eq "^  guest +- +2 +1 +[0-9.]+ +[0-9.]+ +$eff\$" ||
  fail "the scaling table's efficiency for 2 guests is not $eff"
# two guests on two host CPUs cannot do more than twice one's work: above
# 1.05 the report must say the runs measured the machine's speed (here: 1.13
# with CPU speeds 0.94 and 1.07, 1.41 in a CI run), with both runs' speeds
if awk -v e="$eff" 'BEGIN { exit !(e > 1.05) }'; then
  contains "$out" "arm guest, 2 guests: consolidation efficiency $eff, above 1" ||
    fail "efficiency $eff above 1 and no note says why"
  contains "$out" "the machine's CPU ran at" || fail "the superlinear note does not give the runs' CPU speeds"
else
  contains "$out" "consolidation efficiency $eff, above 1" 2>/dev/null && fail "a note calls efficiency $eff above 1"
fi
[ -s "$r/scaling.svg" ] || fail "no scaling.svg"
grep -q "<svg" "$r/scaling.svg" || fail "scaling.svg is not an SVG"
