# quickstart.sh: the shipped quickstart.ini for real, its sizes made smaller
# (host arm and three 2-guest arms: guest, tuned, tuned_memory; row-zlib
# compression): every arm yields TPS, the compression took effect in all
# seven servers, the writeback guests' data disks sit in the host page cache
# after the measure phase and the cache=none guests' do not, the guests
# started measuring within a second of each other, every sample line parses,
# every target's chain recorded its block I/O, every arm's time budget is
# counted right and its verdict said (gap.h), the report shows the four arms
# and what tuned_memory won or lost against the untuned guest, the miss-cost
# probe fits each arm's pool and prices the prediction, the read probe
# prices the tuned arms' path, meta.json says how each target's tables came
# (all seven copied the copy loaded on this machine), pin = auto placed the
# guests as the machine's CPU count allows (vCPUs alone on 2-3 CPUs) and
# read it back, and nothing is left. And the mission's answer itself: the
# host arm's TPS above every guest arm's per guest, tuned_memory (its data
# in its pool) 10 % above tuned (the same I/O path, a small pool), and the
# report's TPS and ratios recomputed from the samples.
. "$VBED_SRC/tests/lib.sh"
need_libvirt
need_prog jq

# the shipped file with three sizes made smaller for TCG in CI (about 5
# minutes instead of 11): 60,000 rows (10 MB compressed, still above the 8 MB
# pool and within a guest's page cache), a warm-up of at most 25 s (20 s in
# whole 10 s slices; TCG's TPS is never shown steady in it; after 20 s
# tuned_memory, whose pool fills meanwhile, hit 0.9987 and 0.9990 in its
# measure phase and ran +91 % over tuned, against 0.9995 and +84 % after
# 30 s), a 20 s measure phase (15 s leaves the chain too short an interval
# between the phase's two instants, below). Every other key is the shipped
# one's.
sc=$VBED_TEST_TMP/quickstart.ini
sed -e 's/^table_size *=.*/table_size   = 60000/' -e 's/^warmup_max *=.*/warmup_max   = 25s/' \
  -e 's/^duration *=.*/duration     = 20s/' scenarios/quickstart.ini > "$sc"
[ "$(diff scenarios/quickstart.ini "$sc" | grep -c '^>')" -eq 3 ] ||
  fail "scenarios/quickstart.ini no longer has one table_size, warmup_max and duration line each"
# host-prepare loads the tables on this machine before the first run and
# leaves a copy for every target: no copy of them may be in the cache before (one from a guest, or from the
# last run of this test). A copy is the image's prepared/<key>/ with the
# sizes in its meta.json; loading them again on the host takes seconds.
img=$("$VBED" image path) || fail "the guest image is not built"
forget_prepared "$img" 1 60000 "ROW_FORMAT=COMPRESSED"
res=$VBED_TEST_TMP/res
start=$SECONDS
expect_rc 0 "$VBED" run --id e2eqs -o "$res" "$sc"
echo "$out"
echo "wall time: $((SECONDS - start)) s"
assert_nothing_left e2eqs
r=$(latest_results "$res")
s=$r/samples.jsonl
jq -c . "$s" > /dev/null || fail "a line of samples.jsonl does not parse"
jq -e '.status == "complete"' "$r/meta.json" >/dev/null || fail "meta.json status"
[ "$(jq -r .versions.mariadb_host "$r/meta.json")" = "$(jq -r .versions.mariadb_guest "$r/meta.json")" ] ||
  fail "the host and guest arms ran different MariaDB builds"

q() { jq -r "select($1) | .value" "$s"; }
# the checks below want exactly one number: a missing sample ("") or two
# of them must fail, not compare as a string
arms="host guest tuned tuned_memory"
targets=7 # the host arm and 3 x 2 guests
for arm in $arms; do
  tps=$(q ".metric == \"tps_arm\" and .labels.arm == \"$arm\"")
  [ -n "$tps" ] || fail "arm $arm: no tps_arm"
  awk -v v="$tps" 'BEGIN { exit !(v ~ /^[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$/ && v > 0) }' || fail "arm $arm: TPS $tps"
  echo "arm $arm: $tps tx/s"
done
# compression verified in all seven servers
# a ratio of pages in use: above 1, and at most 16 / KEY_BLOCK_SIZE (8 KiB
# pages: 2.0) -- the file sizes' ratio read 2.61 and 3.13 here
[ "$(q '.metric == "compression_ratio" and .value > 1.05 and .value <= 2.0' | wc -l)" -eq $targets ] ||
  fail "compression ratio not in (1.05, 2.0] in every server: $(q '.metric == "compression_ratio"' | tr '\n' ' ')"
[ "$(q '.metric == "cmp_compress_ok_share" and .value > 0 and .value <= 1' | wc -l)" -eq $targets ] ||
  fail "INNODB_CMP's compress_ops_ok share not beside every ratio"
[ "$(q '.metric == "cmp_compress_ops" and .value > 0' | wc -l)" -eq $targets ] || fail "INNODB_CMP compress ops"
# a target that copied its tables takes their uncompressed size from where
# they were loaded (no table copy of its own): all seven did (the copy
# records it), and the guests' ratio is the host arm's within 1 %: the
# same file in each (a host arm that loaded its own came within 0.1 %
# once, its tablespace 4 KiB larger)
host_ratio=$(q '.metric == "compression_ratio" and .labels.arm == "host"')
recorded=$(q '.metric == "table_bytes_logical" and .labels.measured == "prepared copy"' | grep -c .)
[ "$recorded" -eq 7 ] || fail "only $recorded targets took the uncompressed size from the prepared copy"
for ratio in $(jq -r 'select(.metric == "compression_ratio" and .labels.arm != "host") | .value' "$s"); do
  awk -v g="$ratio" -v h="$host_ratio" 'BEGIN { exit !(h > 1.05 && g / h > 0.99 && g / h < 1.01) }' ||
    fail "a guest's compression ratio $ratio is not the host arm's $host_ratio"
done
echo "compression ratio: host $host_ratio, guests $(q '.metric == "compression_ratio" and .labels.arm != "host"' | tr '\n' ' ')($recorded with the prepared copy's uncompressed size)"
# host page cache: writeback guests cached, the cache=none guest not
for g in 1 2; do
  b=$(q ".metric == \"host_cache_data_bytes\" and .labels.arm == \"guest\" and .labels.guest == $g and .labels.when == \"after\"")
  awk -v v="$b" 'BEGIN { exit !(v ~ /^[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$/ && v > 1048576) }' || fail "writeback guest $g: only $b bytes of its data disk cached"
  echo "writeback guest $g: $b bytes of its data disk in the host page cache"
done
for arm in tuned tuned_memory; do
  for g in 1 2; do
    b=$(q ".metric == \"host_cache_data_bytes\" and .labels.arm == \"$arm\" and .labels.guest == $g and .labels.when == \"after\"")
    awk -v v="$b" 'BEGIN { exit !(v ~ /^[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$/ && v < 1048576) }' || fail "cache=none guest $arm/$g: $b bytes cached"
    echo "cache=none guest $arm/$g: $b bytes"
  done
done
for arm in guest tuned tuned_memory; do
  skew=$(q ".metric == \"measure_start_skew_s\" and .labels.arm == \"$arm\"")
  awk -v v="$skew" 'BEGIN { exit !(v ~ /^[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$/ && v < 1) }' || fail "$arm: guests started $skew s apart"
  echo "$arm: start skew $skew s"
done

# issue 9: the run reaches the disk, is steady, and says how noisy it was
num() { awk -v v="$1" 'BEGIN { exit !(v ~ /^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$/) }'; }
# hit_ratios SELECT COUNT CONDITION WHAT: COUNT bp_hit_ratio samples where
# SELECT holds, each a number meeting the awk CONDITION on v
hit_ratios() {
  local hits h
  hits=$(q ".metric == \"bp_hit_ratio\" and $1")
  [ "$(echo "$hits" | grep -c .)" -eq "$2" ] || fail "expected $2 bp_hit_ratio samples of $4, got: $hits"
  for h in $hits; do
    num "$h" && awk -v v="$h" "BEGIN { exit !($3) }" || fail "$4: hit ratio $h"
  done
  echo "buffer-pool hit ratios of $4: $(echo $hits)"
}
hit_ratios '.labels.arm != "tuned_memory"' 5 'v < 0.99 && v > 0' "the arms but tuned_memory (the data must leave the pool)"
# tuned_memory: buffer_pool = auto gave InnoDB the memory, and the data fits it
hit_ratios '.labels.arm == "tuned_memory"' 2 'v >= 0.99' "tuned_memory (its pool must hold the data)"
wb_min=$(q '.metric == "host_cache_data_bytes" and .labels.arm == "guest" and .labels.when == "after"' | sort -g | head -n 1)
none=$(q '.metric == "host_cache_data_bytes" and .labels.arm == "tuned" and .labels.when == "after"' | sort -g | tail -n 1)
awk -v w="$wb_min" -v n="$none" 'BEGIN { exit !(w > 10 * (n > 4096 ? n : 4096)) }' ||
  fail "writeback residency $wb_min is not 10x the cache=none guest's $none"
# where the data fits, per arm: as the model says
fits() { jq -r "select(.metric == \"working_set_bytes\" and .labels.arm == \"$1\") | .labels.fits" "$s" | sort -u; }
[ "$(fits host)" = host_page_cache ] || fail "host arm: fits '$(fits host)'"
[ "$(fits guest)" = guest_page_cache ] || fail "guest arm: fits '$(fits guest)'"
[ "$(fits tuned)" = none ] || fail "tuned arm: fits '$(fits tuned)'"
[ "$(fits tuned_memory)" = buffer_pool ] || fail "tuned_memory arm: fits '$(fits tuned_memory)'"
# warm-up: every target says what it needed; where it says steady, it was
# shown steady on its last two 10 s slices: the drift over both (labels.t
# runs on across the slices) with its 95 % CI within
# +-5 % (recomputed here from the interval samples, grouped by their
# labels.slice; t(0.975, n-2) as 1.96 + 2.4 / (n-2), within 0.002 of it
# for n >= 10)
[ "$(q '.metric == "warmup_s"' | grep -c .)" -eq $targets ] || fail "expected $targets warmup_s samples"
jq -s '
  def mean: add / length;
  def fit: (map(.t) | mean) as $mt | (map(.tps) | mean) as $my
    | (map((.t - $mt) * (.t - $mt)) | add) as $sxx
    | ((map((.t - $mt) * (.tps - $my)) | add) / $sxx) as $b
    | (map((.tps - $my - $b * (.t - $mt)) | . * .) | add / (length - 2)) as $s2
    | (.[-1].t - .[0].t) as $span
    | {drift: (if $my > 0 then $b * $span / $my else 0 end),
       half: (if $my > 0 then (1.96 + 2.4 / (length - 2)) * ($s2 / $sxx | sqrt) * $span / $my else 1 end)};
  . as $all
  | [ $all[] | select(.metric == "warmup_s" and .labels.steady == "yes" and .labels.mode == "auto") ]
  | map(. as $w
      | [ $all[] | select(.metric == "tps_interval" and .labels.phase == "warmup"
            and .labels.arm == $w.labels.arm and .labels.guest == $w.labels.guest
            and .labels.run == $w.labels.run)
          | {t: .labels.t, tps: .value, slice: .labels.slice} ]
      | group_by(.slice) | .[-2:] as $two
      | ($two | add | sort_by(.t) | fit) as $f
      | {arm: $w.labels.arm, guest: $w.labels.guest, n: (($two[0] | length) + ($two[1] | length)),
         drift: $f.drift, half: $f.half})
  | map(select(.n < 10 or (.drift | fabs) + .half > 0.052))
  | if length == 0 then true else error("warm-up stopped before it was shown steady: \(.)") end' "$s" >/dev/null ||
  fail "a target called steady was not shown steady on its last two slices"
echo "warm-up needed: $(q '.metric == "warmup_s"' | tr '\n' ' ')s"
# noise on record: the host's per run, each guest's own
for arm in $arms; do
  for m in host_steal_pct host_other_cpu_pct; do
    v=$(q ".metric == \"$m\" and .labels.arm == \"$arm\"")
    num "$v" || fail "arm $arm: $m is '$v'"
  done
done
[ "$(q '.metric == "guest_steal_pct"' | grep -c .)" -eq 6 ] || fail "expected guest_steal_pct for 6 guests"
# the machine's speed over each run's measure phase (hostside/speed.h): one
# figure per run from a unit a second over its 20 s, a unit's CPU time (a
# few ms of zlib, never a second: that would be the sleep between units)
jq -se 'map(select(.metric == "host_speed_unit_ms")) | length == 4 and
        all(.value > 0.5 and .value < 500 and .labels.units >= 10 and .labels.units <= 25)' "$s" >/dev/null ||
  fail "host_speed_unit_ms is not one unit time per run: $(q '.metric == "host_speed_unit_ms"' | tr '\n' ' ')"
echo "CPU ms per speed unit, per run: $(q '.metric == "host_speed_unit_ms"' | tr '\n' ' ')"
# and the memory unit beside it, the same periods: 100,000 dependent loads
# over 64 MiB take longer than as many cache hits could (2 ms) -- a loop
# a compiler dropped or a table that fits a cache reads below that
jq -se 'map(select(.metric == "host_memory_unit_ms")) | length == 4 and
        all(.value > 2 and .value < 1000 and .labels.loads == 100000 and .labels.units >= 10)' "$s" >/dev/null ||
  fail "host_memory_unit_ms is not one memory unit time per run: $(q '.metric == "host_memory_unit_ms"' | tr '\n' ' ')"
echo "CPU ms per memory unit, per run: $(q '.metric == "host_memory_unit_ms"' | tr '\n' ' ')"
echo "$out" | grep -Eq '^  arm +fits in .* noise +CPU speed +pin$' || fail "no CPU speed column"
jq -e '.order.mode == "shuffle" and (.order.seed | type) == "number"' "$r/meta.json" >/dev/null ||
  fail "meta.json: no order and seed"
jq -e '[.runs[] | .placement.applied | type == "boolean"] | all and length == 4' "$r/meta.json" >/dev/null ||
  fail "meta.json: a run without its placement"
# pin = auto with 2 guests of 1 vCPU: 4 CPUs pin vCPUs and emulators, 2-3 CPUs
# the vCPUs alone (one CPU each, side by side), 1 CPU nothing; every pinning
# read back from the running guests
cpus=$(jq -r '.placement.host_cpus_online' "$r/meta.json")
if [ "$cpus" -ge 4 ]; then want='true true' column='pinned'
elif [ "$cpus" -ge 2 ]; then want='true false' column='vCPUs pinned'
else want='false null' column='none'; fi
got=$(jq -r '[.runs[] | select(.arm != "host") | .placement | "\(.pin == "auto") \(.emulators)"] | unique | join(",")' "$r/meta.json")
[ "$got" = "$want" ] || fail "placement on $cpus CPUs: guest runs have (pinned, emulators) $got, want $want"
[ "$cpus" -lt 2 ] || jq -e '[.runs[] | select(.arm != "host") | .placement.applied] | all' "$r/meta.json" >/dev/null ||
  fail "a guest run's pinning was not applied: $(jq -c '[.runs[].placement.reason]' "$r/meta.json")"
[ "$cpus" -lt 2 ] || [ "$cpus" -ge 4 ] ||
  jq -e '[.runs[] | select(.arm != "host") | .placement.guests[] | .vcpus] == ["0","1","0","1","0","1"]' "$r/meta.json" >/dev/null ||
  fail "guests' vCPUs not one per CPU: $(jq -c '[.runs[] | .placement.guests]' "$r/meta.json")"
[ "$(echo "$out" | grep -E '^  (guest|tuned|tuned_memory) ' | grep -c " $column\$")" -eq 3 ] ||
  fail "the report's pin column does not say '$column' for the three guest arms"

[ -f "$r/summary.csv" ] || fail "no summary.csv"

# the mission's answer on a live run: under TCG the bare host serves far
# more than any guest (one guest's TPS); the memory given to InnoDB wins
# where its data fits its pool and a small pool's does not (checked above:
# hit ratio >= 0.99 against < 0.99), on the same I/O path; and the report's
# TPS, TPS per guest and ratios are the samples' (0.5 %)
need_prog python3
per_guest() { echo "$(q ".metric == \"tps_arm\" and .labels.arm == \"$1\"") $2" | awk '{ print $1 / $2 }'; }
host_pg=$(per_guest host 1)
for arm in guest tuned tuned_memory; do
  pg=$(per_guest $arm 2)
  awk -v h="$host_pg" -v g="$pg" 'BEGIN { exit !(h > g) }' ||
    fail "the host arm's $host_pg TPS is not above $arm's $pg per guest"
  echo "host $host_pg TPS against $arm's $pg per guest"
done
# The memory's own effect, on the same I/O path: tuned_memory differs from
# tuned only in its pool (auto: the data fits), and won +19 % to +172 % over
# it in every recorded run here (tests/data/results: +19, +38, +172 % over
# three repeats, +40 %; +47 % live); a pool left at 8 MiB wins nothing.
# Against the untuned guest the memory's gain meets cache=none's cost, which
# under TCG with a flush per commit ranged from -35 % to +31 % (tuned against
# guest, same runs): tuned_memory landed from -3 % to +84 % of the untuned
# guest, within +-5 % in two of five runs -- a ">" there is a coin's toss,
# not a property of vbed. It is printed, not asserted.
awk -v m="$(per_guest tuned_memory 2)" -v t="$(per_guest tuned 2)" 'BEGIN { exit !(m > 1.1 * t) }' ||
  fail "tuned_memory ($(per_guest tuned_memory 2) TPS per guest, its data in its pool) did not win 10 % over tuned ($(per_guest tuned 2)), the same I/O path with an 8 MiB pool"
echo "tuned_memory: $(awk -v m="$(per_guest tuned_memory 2)" -v t="$(per_guest tuned 2)" -v g="$(per_guest guest 2)" \
  'BEGIN { printf "%+.0f %% over tuned, %+.0f %% over the untuned guest", 100 * (m / t - 1), 100 * (m / g - 1) }')"
report_matches_samples "$r" || fail "the report's TPS or ratios are not the samples'"
# --explain: the predictions' arithmetic, asserted below (read across the wraps)
expect_rc 0 "$VBED" report --explain "$r"
for arm in $arms; do contains "$out" "  $arm " || fail "report lacks arm $arm"; done
contains "$out" "guest/host" || fail "report lacks the Guest/Host ratio"

# issue 20: the chain's block I/O is measured in every server (a connection
# thread older than delay accounting's switch is left out, never recorded as
# 0), every arm's budget is counted right, and tuned_memory's difference
# from the untuned guest is split into parts.
# Delay accounting counts 1/100 s ticks: where the connection thread's only
# block I/O is the commit's redo-log write (guest: reads hit the guest page
# cache; tuned_memory: reads hit the pool) 20 s can stay below one tick (CI
# saw 0 and 0.01 s). The host arm (its fsync) and tuned (O_DIRECT reads that
# miss an 8 MB pool) block for tenths of a second: 0 there is a thread
# without accounting (all six guests read 0 before the thread-cache fix).
blkio() { q ".metric == \"chain_server_blkio_s\" $1"; }
[ "$(blkio '' | grep -c .)" -eq $targets ] ||
  fail "the connection thread's block I/O recorded for $(blkio '' | grep -c .) of $targets servers: $(jq -r 'select(.metric == "chain_server_blkio_s") | "\(.labels.arm)/\(.labels.guest) \(.value)"' "$s" | tr '\n' ' '); vbed warned: $(echo "$err" | grep -E 'chain|delay accounting|block I/O|PROCESSLIST' | tr '\n' ' ')"
for arm in host tuned; do
  n=$(blkio "and .labels.arm == \"$arm\"" | grep -c .)
  [ "$n" -ge 1 ] && [ "$(blkio "and .labels.arm == \"$arm\" and .value > 0.02" | grep -c .)" -eq "$n" ] ||
    fail "arm $arm: the connection thread's block I/O is not above 0.02 s in every server: $(blkio "and .labels.arm == \"$arm\"" | tr '\n' ' ')"
done
# the readings inside the phase nest (probes/registry.c): in every guest
# the tasks scan (0.4-2 s of its vCPU here) is read before the chain's first
# reading and after its second, so its interval is the longer one (read in
# registry order at both instants, it came out 0.7-0.9 s shorter); the
# chain keeps at least 3 s of the 10 s between the two instants (20 s - 2 x
# 5 s of margin: the scan is read ahead of instant 0, performance_schema's
# query, 1-2 s under TCG, just before the chain: 4.7-8.1 s here); and the
# vCPUs' delay was read next to the chain, inside it: p over the chain's
# interval
gtargets=$((targets - 1))
short=$(jq -r 'select(.metric == "chain_interval_s" and .labels.arm != "host" and .value < 3) | "\(.labels.arm)/\(.labels.guest) \(.value)"' "$s")
[ -z "$short" ] || fail "the chain's interval is below 3 s of the 10 s between its instants: $short"
nest=$(jq -rs '[.[] | select(.labels.arm != "host" and (.metric == "tasks_interval_s" or .metric == "chain_interval_s"))] |
  group_by([.labels.arm, .labels.guest]) | map({(.[0].metric): .[0].value, (.[1].metric): .[1].value}) |
  map(select(.tasks_interval_s > .chain_interval_s)) | length' "$s")
[ "$nest" -eq "$gtargets" ] ||
  fail "the tasks scan is outside the chain's interval in $nest of $gtargets guests: $(jq -r 'select(.metric == "tasks_interval_s" or .metric == "chain_interval_s") | "\(.labels.arm)/\(.labels.guest) \(.metric) \(.value)"' "$s" | tr '\n' ' ')"
inner=$(jq -rs '[.[] | select(.metric == "qemu_vcpu_inner_s" or .metric == "qemu_vcpu_delay_inner_s")] |
  group_by([.labels.arm, .labels.guest]) | map(select(length == 2 and (map(.value) | add) > 0)) | length' "$s")
[ "$inner" -eq "$gtargets" ] || fail "the vCPUs' time and delay next to the chain recorded in $inner of $gtargets guests"
# every arm's budget is checked, and not by default: sysbench's
# transactions are the server's own count of commits and rollbacks (2 %),
# the thread's states fit their interval (gap.h) -- vbed's own counting,
# asserted in every arm. Whether the parts then account for the thread's
# time within the limits (+-10 %) is what a run found, not what vbed did:
# live budgets here left -3 % to +6 % unattributed, a full-size host arm
# -10.4 % (make demo), and CI's run of 661f3d3 failed on an arm that did
# not close (which one its page did not show). So each arm's unattributed
# share must lie within +-20 % -- a counter 30 % wrong leaves more (the
# statement time x 0.7: -32 % in quickstart-counts' host arm; the verdict
# itself fails on perturbed recorded runs in unit/test_budget.c) -- and
# the report's sentence must say what the JSON's verdict is.
# The states' fit is vbed's reading (each thread read at its own moment,
# never inside a block I/O wait) and the kernel's counters: the guests'
# (Debian 12's kernel) came out 3-5 % under their interval in the last CI run,
# so 2 % over is their bound; the host arm's, on this machine's kernel
# (6.18), came out -1.6 % to +1.6 % in 8 runs by hand, +3.4 % in a CI run
# and +3.5 % in a make demo -- and a reader of its own (every 20 ms, not
# vbed's) found them +0.5 % over 17 s with the thread seen asleep in 4 % of
# its samples: a few per cent the counters add that no reading removes.
# The verdict keeps its 2 % (the report says "does not close" and why);
# this test bounds the host arm's fit at 5 %, which a thread counted twice
# (+100 %), a wait counted whole at a reading (7.5 % in a CI run before the
# reading waited for it) or the wrong instant's interval still exceed.
json=$("$VBED" report --no-html --format=json "$r") || fail "vbed report --format=json failed"
for arm in $arms; do
  layers=$(echo "$json" | jq -c --arg a "$arm" '.variants[0].arms[] | select(.name == $a) | .layers |
      {closes, tps_check, tps_difference, states_over_interval, other_share}')
  fit=0.02
  [ "$arm" != host ] || fit=0.05
  echo "$layers" | jq -e --argjson fit "$fit" '.tps_check == "count" and (.tps_difference | fabs) <= 0.02
      and .states_over_interval <= $fit and (.other_share | fabs) <= 0.20' >/dev/null ||
    fail "arm $arm: the budget's checks: $layers"
  said=$(unwrapped "$out" | grep -E "^  The budget of $arm (closes|does not close): ")
  case $(echo "$layers" | jq -r .closes),$said in
    true,*"The budget of $arm closes: "* | false,*"The budget of $arm does not close: "*) ;;
    *) fail "arm $arm: the report says '$said', the JSON $layers" ;;
  esac
  echo "arm $arm: $(echo "$layers" | jq -r '"closes \(.closes): sysbench against the server count \(.tps_difference * 100 | . * 100 | round / 100) %, states over their interval \(.states_over_interval * 100 | . * 100 | round / 100) %, unattributed \(.other_share * 100 | . * 100 | round / 100) %"')"
done
# the split of one run: its parts listed by size with no +- and none
# named beyond noise -- the two guests of a run are not independent, so one
# run has no CI (gap.h) -- never a split without its parts
unwrapped "$out" | grep -E "^  tuned_memory (gains [0-9.]+ % over|loses [0-9.]+ % of) guest's TPS per guest; one run, no CI: [-0-9.]+ points [^+]*; residual [-0-9.]+ points\." ||
  fail "no split of tuned_memory against the untuned guest"
unwrapped "$out" | grep -E '^  tuned(_memory)?: (predicted|no prediction)' || fail "no prediction line for the tuned arms"
# the miss-cost probe (workloads/misscost.h) ran in every server whose data
# exceeds its pool -- all but tuned_memory's two, whose pool holds the table
# (nothing to price: no probe); there the cold lookups missed and took
# longer than the same lookups again. The prediction prices the misses
# with it.
[ "$(q '.metric == "miss_probe_cold_reads"' | grep -c .)" -eq $((targets - 2)) ] ||
  fail "the miss-cost probe recorded in $(q '.metric == "miss_probe_cold_reads"' | grep -c .) of $((targets - 2)) servers"
[ "$(q '.metric == "miss_probe_cold_reads" and .labels.arm == "tuned_memory"' | grep -c .)" -eq 0 ] ||
  fail "tuned_memory, whose pool holds the table, ran the miss-cost probe"
jq -se 'map(select(.metric | startswith("miss_probe_"))) | group_by([.labels.arm, .labels.guest])
  | map({arm: .[0].labels.arm, v: (map({(.metric): .value}) | add)})
  | map(. + {extra: (.v.miss_probe_cold_reads - .v.miss_probe_hot_reads),
             slower: (.v.miss_probe_cold_s > .v.miss_probe_hot_s)})
  | map(select(.extra < 20 or (.slower | not)))
  | if length == 0 then true else error("miss probes against their pools: \(.)") end' "$s" >/dev/null ||
  fail "a miss-cost probe does not fit its pool (none or no cost where the data exceeds it)"
unwrapped "$out" | grep -E "^  tuned_memory: predicted .* guest's [0-9.]+, of them the chain's own [0-9.]+ and [0-9.]+, each costing [0-9.]+ ms there( and [0-9.]+ ms on its path: [^)]*)?\)" ||
  fail "tuned_memory's prediction does not price the misses with the probe"
# the chain's own misses (its foreground reads) are some of the guest's
# misses, more than none: the misses the prediction prices at the probe's cost
jq -e '[.variants[0].arms[] | select(.name == "tuned_memory")][0].prediction
  | .untuned_own_misses_per_tx > 0 and .untuned_own_misses_per_tx <= .untuned_misses_per_tx
    and .own_misses_per_tx < .untuned_own_misses_per_tx' <("$VBED" report --format json "$r") >/dev/null ||
  fail "report JSON: tuned_memory's prediction has no own misses of the chain, or more than its misses"
# the read probe (workloads/readcost.h) ran in the four guests that miss;
# in the untuned guest, whose page cache holds the table, a read through
# the virtual disk costs more than one from the page cache; and the
# O_DIRECT arms' predictions price their misses on their path with it
[ "$(q '.metric == "read_probe_direct_ms" and .value > 0' | grep -c .)" -eq 4 ] &&
  [ "$(q '.metric == "read_probe_cached_ms" and .value > 0' | grep -c .)" -eq 4 ] ||
  fail "the read probe recorded in $(q '.metric == "read_probe_direct_ms"' | grep -c .) of 4 guests"
jq -se 'map(select(.labels.arm == "guest" and (.metric | startswith("read_probe_")))) | group_by(.labels.guest)
  | map(map({(.metric): .value}) | add) | length == 2 and all(.read_probe_direct_ms > .read_probe_cached_ms)' "$s" >/dev/null ||
  fail "in the untuned guest a direct read did not cost more than a cached one"
unwrapped "$out" | grep -E "^  tuned: predicted .* ms on its path: a read through guest's virtual disk costs [0-9.]+ ms more" ||
  fail "tuned's prediction does not price its misses on its path"
# and its page writes: what a request costs, fio's thread's CPU and the
# guest's process's on the host, in the four guests; in the untuned guest a
# direct read and a direct page write take more of fio's CPU than cached
# ones; tuned's prediction moves the background's requests into its
# contention at the host's price
for m in write_probe_direct_ms write_probe_cached_ms read_probe_direct_cpu_ms write_probe_direct_cpu_ms \
         read_probe_direct_host_ms write_probe_direct_host_ms; do
  [ "$(q ".metric == \"$m\" and .value > 0" | grep -c .)" -eq 4 ] ||
    fail "the I/O probe recorded $m in $(q ".metric == \"$m\"" | grep -c .) of 4 guests"
done
# (over both guests and both directions: one guest's read or write alone
# came out the other way once here, fio's thread CPU of a 16 KiB request
# being tenths of a ms under TCG)
cpu_probe=$(jq -sc 'map(select(.labels.arm == "guest" and (.metric | test("^(read|write)_probe_.*_cpu_ms$"))))
  | group_by(.labels.guest) | map(map({(.metric): .value}) | add)' "$s")
echo "fio's CPU per request in the untuned guests (ms): $cpu_probe"
echo "$cpu_probe" | jq -e 'length == 2 and
    (map(.read_probe_direct_cpu_ms + .write_probe_direct_cpu_ms) | add) >
    (map(.read_probe_cached_cpu_ms + .write_probe_cached_cpu_ms) | add)' >/dev/null ||
  fail "in the untuned guests direct requests did not take more of fio's CPU than cached ones"
# priced by the guest's own clock (fio's CPU, read above), not QEMU's whole process
unwrapped "$out" | grep -E "^  tuned: predicted .*; on its O_DIRECT path the background's requests through the virtual disk add [0-9.]+ ms: .* of fio's CPU in the guest each" ||
  fail "tuned's prediction does not price the background's requests"
# the tasks probe (probes/tasks.h) read every guest's tasks: mariadbd's
# connections and its page cleaner told apart by performance_schema, kernel
# threads by their flag, and the tasks account for the guest's busy time (a
# reading that found no task leaves it all unattributed: it did once here)
jq -se 'map(select(.labels.guest > 0 and (.metric | startswith("tasks_"))))
  | group_by([.labels.arm, .labels.guest]) | map(map({(.metric): .value}) | add)
  | length == 6 and all(.tasks_connections_cpu_s > 0 and .tasks_sysbench_cpu_s > 0
      and .tasks_kernel_cpu_s > 0 and .tasks_page_cleaner_cpu_s >= 0
      and (.tasks_page_cleaner_cpu_s + .tasks_innodb_pool_cpu_s + .tasks_connections_cpu_s
           + .tasks_mariadbd_other_cpu_s + .tasks_sysbench_cpu_s + .tasks_kernel_cpu_s
           + .tasks_rest_cpu_s) as $t | $t > 0.8 * .tasks_busy_s and $t < 1.1 * .tasks_busy_s)' "$s" >/dev/null ||
  fail "the guests' CPU by task: $(jq -c 'select(.labels.guest > 0 and (.metric | startswith("tasks_"))) | [.labels.arm, .labels.guest, .metric, .value]' "$s" | tr '\n' ' ')"
# and the prediction scales the contention with them: tuned_memory, which
# saves every miss, predicts less of it than the untuned guest's
unwrapped "$out" | grep -E "^  tuned_memory: predicted .* Its CPU contention [0-9.]+ ms per transaction against guest's [0-9.]+: the chain waits while its guest's other tasks \([0-9.]+ ms of CPU per transaction in guest, of it [0-9.]+ InnoDB's background" ||
  fail "tuned_memory's prediction does not scale the contention"
jq -e '[.variants[0].arms[] | select(.name == "tuned_memory")][0].prediction
  | .contention_scaled and .contention_predicted_ms < .contention_ms and .innodb_background_cpu_ms > 0' \
  <("$VBED" report --format json "$r") >/dev/null ||
  fail "report JSON: tuned_memory's contention not predicted below the untuned guest's"
# and beside it, the prediction at the guests' own speed (each guest timed
# its speed job after the measure phase: all six)
[ "$(q '.metric == "guest_speed_unit_ms" and .value > 0' | grep -c .)" -eq 6 ] ||
  fail "the guests' speed job recorded in $(q '.metric == "guest_speed_unit_ms"' | grep -c .) of 6 guests"
unwrapped "$out" | grep -E "^  tuned(_memory)?: predicted .* Its guests took [0-9]+ ms of their CPU for the speed job \(gzip in each guest after its measure phase\), guest's [0-9]+ ms \([-+][0-9]+ %\): at that speed, with guest's CPU-bound share of [0-9]+ %, the prediction is [0-9.]+ \([-+][0-9.]+ %; not in the verdict\)\." ||
  fail "no prediction at the guests' speed"
# how each target's tables came, on record
jq -e '[.runs[] | (.prepare | length) == (if .arm == "host" then 1 else 2 end)
        and ([.prepare[].how] - ["loaded", "copied"] | length) == 0] | all' "$r/meta.json" >/dev/null ||
  fail "meta.json: a run without how its tables came (prepare)"
# every target, the host arm too, copied the copy loaded on this machine;
# the host arm's files were written there by the mysql user (via local)
jq -e '[.runs[] | select(.arm == "host") | .prepare[] | [.how, .from, .via]] == [["copied", "host arm", "local"]]
       and ([.runs[] | select(.arm != "host") | .prepare[] | .how == "copied" and .from == "host arm"]
            | length == 6 and all)' "$r/meta.json" >/dev/null ||
  fail "meta.json: not every target copied the tables loaded on this machine: $(jq -c '[.runs[] | {arm, prepare}]' "$r/meta.json")"
m=$(for f in "$img"/prepared/*/meta.json; do
  jq -e '.loaded_in == "host arm" and .from == "host-prepare" and .table_size == 60000' "$f" >/dev/null && echo "$f"
done)
[ "$(echo "$m" | grep -c .)" -eq 1 ] || fail "no single copy of the tables from the host arm in $img/prepared"
echo "the host arm's copy: $(jq -r '"\(.bytes / 1e6 | . * 10 | round / 10) MB, loaded in \(.load_s | . * 10 | round / 10) s"' "$m")"
# a guest's copied tables came through a disk of their own, not its agent
jq -e '[.runs[] | select(.arm != "host") | .prepare[] | select(.how == "copied") | .via == "disk"] | length >= 4 and all' \
  "$r/meta.json" >/dev/null ||
  fail "meta.json: a guest's copied tables did not come through the tables disk: $(jq -c '[.runs[].prepare]' "$r/meta.json")"
[ -f "$r/report.html" ] || fail "no report.html"
