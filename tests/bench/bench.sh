#!/usr/bin/env bash
# bench.sh: figures, not tests (make bench): start-to-ready of 1 guest and of
# 2 guests started together, booted (--cold) and restored from the saved
# ready guest (the default), vbed's own CPU time while it waits, the size of
# a saved ready guest, and the image cache's answer time. Prints; asserts
# nothing.
set -euo pipefail
cd "$(dirname "$0")/../.."
vbed=${VBED:-./vbed}
bash scripts/start-daemons.sh >/dev/null
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "== image cache: a build with nothing to do"
/usr/bin/time -f "   %e s wall, %U s user" "$vbed" -q image build > /dev/null

for start in cold restore; do
  for n in 1 2; do
    scenario=tests/data/scenarios/one-guest.ini
    [ $n -eq 2 ] && scenario=tests/data/scenarios/two-guests.ini
    flag=$([ $start = cold ] && echo --cold || true)
    echo "== $start: run start to ready, $n guest(s) started together"
    t0=$SECONDS
    "$vbed" run -o "$tmp" --boot-only $flag "$scenario" > "$tmp/out" 2> "$tmp/err"
    sed 's/^/   /' "$tmp/out"
    grep -o 'vbed used .*\|saved a ready guest in .*' "$tmp/err" | sed 's/^/   /'
    r=$(ls -td "$tmp"/*/ | head -n 1)
    jq -r '.runs[0].guest_start[] | "   \(.start): ready \(.ready_s * 10 | round / 10) s after its start\(if .restore_s then ", restore \(.restore_s * 10 | round / 10) s" else "" end)"' \
      "$r/meta.json"
    echo "   vbed run, whole: $((SECONDS - t0)) s"
  done
done
echo "== saved ready guests"
"$vbed" image list | grep '+ saved' | sed 's/^/ /' || echo "   none"
accel=$(jq -r .accel "$(ls -td "$tmp"/*/ | head -n 1)/meta.json")
echo "== accel: $accel"

# The quick scenario, 3 repeats (about 30 minutes under TCG): how repeatable
# each arm's TPS is (CV over the repeats; the goal is <= 5 %) and how much
# warm-up each arm needed to reach a steady state, and how each target's
# tables came (copied through the tables disk, or loaded) in how long.
# BENCH_QUICKSTART=0 skips it.
if [ "${BENCH_QUICKSTART:-1}" != 0 ]; then
  echo "== quickstart.ini, 3 repeats"
  sed 's/^\[global\]$/[global]\nrepeats = 3/' scenarios/quickstart.ini > "$tmp/quickstart.ini"
  start=$SECONDS
  "$vbed" run -o "$tmp/qs" "$tmp/quickstart.ini" > "$tmp/qs.out" 2> "$tmp/qs.err" || {
    tail -n 20 "$tmp/qs.err"
    exit 1
  }
  echo "   wall time: $((SECONDS - start)) s"
  s=$(ls -td "$tmp"/qs/*/ | head -n 1)samples.jsonl
  jq -rs '
    def cv: (add / length) as $m | (map(. - $m | . * .) | add / (length - 1) | sqrt) / $m * 100;
    (map(select(.metric == "tps_arm")) | group_by(.labels.arm) | map({
      arm: .[0].labels.arm, n: length, tps: map(.value),
      mean: (map(.value) | add / length), cv: (map(.value) | if length > 1 then cv else null end)
    })) as $tps
    | (map(select(.metric == "warmup_s")) | group_by(.labels.arm)
       | map({key: .[0].labels.arm, value: {mean: (map(.value) | add / length),
              max: (map(.value) | max), unsteady: (map(select(.labels.steady == "no")) | length)}})
       | from_entries) as $w
    | (map(select(.metric == "steady_state_drift" and .labels.steady == "no")) | group_by(.labels.arm)
       | map({key: .[0].labels.arm, value: length}) | from_entries) as $d
    | $tps[] | "   \(.arm): TPS \(.tps | map(. * 10 | round / 10) | join(", ")) -> mean \(.mean * 10 | round / 10), CV \(if .cv then (.cv * 10 | round / 10 | tostring) + " %" else "-" end); warm-up needed mean \($w[.arm].mean // 0 | round) s, max \($w[.arm].max // 0 | round) s (\($w[.arm].unsteady // 0) target(s) never steady); measure phases drifting: \($d[.arm] // 0)"
  ' "$s"
  # how each target's tables came, and how long that took (the host arm loads)
  jq -rs 'map(select(.metric == "prepare_s")) | group_by(.labels.arm) | .[]
    | "   \(.[0].labels.arm): tables \(map(.labels.prepare) | unique | join(" and ")) in \(map(.value) | add / length * 10 | round / 10) s per target (mean of \(length))"' "$s"
  jq -r '"   copied tables came through: \([.runs[].prepare[]?.via // empty] | group_by(.)
    | map("\(.[0]) \(length)") | join(", ") | if . == "" then "-" else . end)"' "${s%samples.jsonl}meta.json"
  # the tables loaded on this machine for the guests before the first run
  # (experiment/hostprepare.h; none when the cache held them already)
  jq -r 'if (.host_prepare // []) == [] then "   host-prepare: none (the cache held the tables)" else
    (.host_prepare[] | "   host-prepare: \(.tables) x \(.table_size) rows loaded here in \(.s * 10 | round / 10) s (server start, load, copy, stop), kept: \(.kept)") end' \
    "${s%samples.jsonl}meta.json"
fi
echo "== prepared tables in the cache"
"$vbed" image list | grep '+ prepared' | sed 's/^/ /' || echo "   none"
