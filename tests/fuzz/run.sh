#!/usr/bin/env bash
# run.sh SECONDS TARGET...: run each libFuzzer target (built by make
# fuzz-bins into build/fuzz) for SECONDS under ASan + UBSan, FUZZ_JOBS of
# them at a time (default 1), each on a working corpus seeded from
# tests/fuzz/<target>/: FUZZ_CORPUS_DIR/<target> (default build/fuzz/corpus;
# CI keeps its own on the machine, so that each run goes on from the last).
# Prints executions and crashes per target, in the
# order given; exits 1 if any target crashed (its input is in
# build/fuzz/crashes/<target>/: copy it to tests/fuzz/crashes/ as a
# reproducer).
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
  local t=$1 bin=build/fuzz/fuzz_$1 corpus=${FUZZ_CORPUS_DIR:-build/fuzz/corpus}/$1 crashes=build/fuzz/crashes/$1
  local log=build/fuzz/$1.log start=$SECONDS rc runs found
  mkdir -p "$corpus" "$crashes"
  # a corpus kept from run to run stays small: past FUZZ_CORPUS_MAX inputs
  # (default 4000) it is merged down to the inputs that each reach coverage
  # no other does (libFuzzer's -merge)
  if [ "$(find "$corpus" -type f | wc -l)" -gt "${FUZZ_CORPUS_MAX:-4000}" ]; then
    rm -rf "$corpus.merged" && mkdir "$corpus.merged" &&
      "$bin" -merge=1 -timeout=25 -rss_limit_mb=2048 "$corpus.merged" "$corpus" >"$log.merge" 2>&1 &&
      rm -rf "$corpus" && mv "$corpus.merged" "$corpus"
  fi
  cp -n tests/fuzz/"$t"/* "$corpus"/ 2>/dev/null
  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
    "$bin" -max_total_time="$secs" -timeout=25 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$crashes/" "$corpus" >"$log" 2>&1
  rc=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  found=$(find "$crashes" -type f | wc -l)
  {
    printf '%-12s %12s %8s %6s\n' "$t" "${runs:-?}" "$found" "$((SECONDS - start))"
    if [ $rc -ne 0 ] || [ "$found" -ne 0 ]; then
      grep -m 5 -E 'ERROR|SUMMARY|runtime error' "$log" | sed 's/^/    /'
      echo FAILED
    fi
  } > "build/fuzz/$t.result"
}

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
printf '%-12s %12s %8s %6s\n' target executions crashes secs
for t in "$@"; do
  if [ ! -s "build/fuzz/$t.result" ]; then
    printf '%-12s %12s %8s %6s\n' "$t" '?' '?' '?'
    echo "    no result: the run of $t did not finish" >&2
    status=1
    continue
  fi
  grep -v '^FAILED$' "build/fuzz/$t.result"
  grep -q '^FAILED$' "build/fuzz/$t.result" && status=1
done
exit $status
