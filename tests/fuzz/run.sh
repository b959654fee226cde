#!/usr/bin/env bash
# run.sh SECONDS TARGET...: run each libFuzzer target (built by make
# fuzz-bins into build/fuzz) for SECONDS under ASan + UBSan, one after
# another, on a working corpus seeded from tests/fuzz/<target>/. Prints
# executions and crashes per target; exits 1 if any target crashed (its
# input is in build/fuzz/crashes/<target>/: copy it to tests/fuzz/crashes/
# as a reproducer).
set -u
cd "$(dirname "$0")/../.."
secs=$1; shift
status=0
printf '%-12s %12s %8s %6s\n' target executions crashes secs
for t in "$@"; do
  bin=build/fuzz/fuzz_$t
  [ -x "$bin" ] || { echo "run.sh: $bin is not built (make fuzz-bins)" >&2; exit 2; }
  corpus=build/fuzz/corpus/$t crashes=build/fuzz/crashes/$t log=build/fuzz/$t.log
  mkdir -p "$corpus" "$crashes"
  cp -n tests/fuzz/"$t"/* "$corpus"/ 2>/dev/null
  start=$SECONDS
  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
    "$bin" -max_total_time="$secs" -timeout=25 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$crashes/" "$corpus" >"$log" 2>&1
  rc=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  found=$(find "$crashes" -type f | wc -l)
  printf '%-12s %12s %8s %6s\n' "$t" "${runs:-?}" "$found" "$((SECONDS - start))"
  if [ $rc -ne 0 ] || [ "$found" -ne 0 ]; then
    status=1
    grep -m 5 -E 'ERROR|SUMMARY|runtime error' "$log" | sed 's/^/    /'
  fi
done
exit $status
