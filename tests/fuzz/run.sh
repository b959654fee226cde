#!/usr/bin/env bash
# run.sh SECONDS TARGET...: run each libFuzzer target (built by make
# fuzz-bins into build/fuzz) for SECONDS of CPU under ASan + UBSan,
# FUZZ_JOBS of them at a time (default 1), each on a working corpus seeded
# from tests/fuzz/<target>/. Prints executions, crashes, CPU and wall
# seconds per target, in the order given; exits 1 if any target crashed
# (its input is in build/fuzz/crashes/<target>/: copy it to
# tests/fuzz/crashes/ as a reproducer).
#
# CPU, not wall time: on an idle machine the two are the same, and where
# the fuzzers run at the lowest priority beside other work (make test's
# FUZZ_BESIDE_LANES: beside the guest tests that run two at a time) each
# still gets its SECONDS of fuzzing, in whatever wall time the idle CPU
# gives it -- at most 60 x SECONDS, after which it stops with what it had
# (the table says how much CPU that was).
set -u
cd "$(dirname "$0")/../.."
secs=$1; shift
jobs=${FUZZ_JOBS:-1}
case $jobs in ''|*[!0-9]*|0) echo "run.sh: FUZZ_JOBS must be a whole number above 0, not '$jobs'" >&2; exit 2 ;; esac
for t in "$@"; do
  [ -x "build/fuzz/fuzz_$t" ] || { echo "run.sh: build/fuzz/fuzz_$t is not built (make fuzz-bins)" >&2; exit 2; }
done

# one target; its line of the table into build/fuzz/<target>.result, its
# exit status 1 if it crashed
one() {
  local t=$1 bin=build/fuzz/fuzz_$1 corpus=build/fuzz/corpus/$1 crashes=build/fuzz/crashes/$1
  local log=build/fuzz/$1.log start=$SECONDS rc runs found pid cpu=0 stopped=no
  mkdir -p "$corpus" "$crashes"
  cp -n tests/fuzz/"$t"/* "$corpus"/ 2>/dev/null
  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
    "$bin" -max_total_time=$((60 * secs)) -timeout=25 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$crashes/" "$corpus" >"$log" 2>&1 &
  pid=$!
  # its CPU (user + system, /proc/PID/stat fields 14 and 15, in ticks):
  # SIGINT once it has had its seconds; libFuzzer then prints its final
  # stats and exits 72 (-interrupted_exitcode), which is its normal end here
  while kill -0 "$pid" 2>/dev/null; do
    cpu=$(awk -v tck="$tck" '{ sub(/^.*\) /, ""); printf "%.1f", ($12 + $13) / tck }' "/proc/$pid/stat" 2>/dev/null) || break
    if awk -v c="$cpu" -v s="$secs" 'BEGIN { exit !(c >= s) }'; then
      stopped=yes
      kill -INT "$pid" 2>/dev/null
      break
    fi
    sleep 0.5
  done
  wait "$pid"
  rc=$?
  [ $rc -eq 72 ] && [ $stopped = yes ] && rc=0
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  found=$(find "$crashes" -type f | wc -l)
  {
    printf '%-12s %12s %8s %6s %6s\n' "$t" "${runs:-?}" "$found" "$cpu" "$((SECONDS - start))"
    if [ $rc -ne 0 ] || [ "$found" -ne 0 ]; then
      grep -m 5 -E 'ERROR|SUMMARY|runtime error' "$log" | sed 's/^/    /'
      echo FAILED
    fi
  } > "build/fuzz/$t.result"
}

tck=$(getconf CLK_TCK)
running=0
for t in "$@"; do
  if [ "$running" -ge "$jobs" ]; then
    wait -n
    running=$((running - 1))
  fi
  rm -f "build/fuzz/$t.result"
  one "$t" &
  running=$((running + 1))
done
wait

status=0
printf '%-12s %12s %8s %6s %6s\n' target executions crashes cpu wall
for t in "$@"; do
  if [ ! -s "build/fuzz/$t.result" ]; then
    printf '%-12s %12s %8s %6s %6s\n' "$t" '?' '?' '?' '?'
    echo "    no result: the run of $t did not finish" >&2
    status=1
    continue
  fi
  grep -v '^FAILED$' "build/fuzz/$t.result"
  grep -q '^FAILED$' "build/fuzz/$t.result" && status=1
done
exit $status
