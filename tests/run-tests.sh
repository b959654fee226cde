#!/usr/bin/env bash
# run-tests.sh: run vbed's test suites and summarise.
#
#   bash tests/run-tests.sh SUITE...      (make test / make check call this)
#
# Suites: unit (cmocka binaries in $VBED_TEST_BIN_DIR), and directories of
# shell tests: cli, lifecycle, image, guests, experiment, report. A test
# passes with exit 0, is skipped with exit 77 (it must say why), fails
# otherwise. With VBED_TEST_NO_SKIP=1 (CI) a skip counts as a failure.
# VBED_TEST_FILTER=REGEX runs only the tests whose name matches,
# VBED_TEST_EXCLUDE=REGEX none whose name matches (make check-asan runs one
# suite in two halves at once: the same REGEX as the one's filter and the
# other's exclusion);
# VBED_TEST_KEEP=1 keeps each test's directory (its path ends the log). A suite
# that runs no test fails (unless a filter or an exclusion left none), and so does a unit
# test file that is not executable. CI (CI=1 or VBED_TEST_NO_SKIP=1) refuses
# VBED_UPDATE_GOLDEN: a golden file rewritten there would pass anything.
# At the end: the ten slowest tests.
# Logs: build/test-logs/<suite>/<test>.log
#
# Two at a time: a shell test whose header has the line
#   # vbed-test: paired SECONDS [why]
# reads no measured figure (a fault, a signal, a watchdog: what vbed does,
# not how fast the guest is), calls no bare `vbed clean`, and touches only
# its own session's domains, disks and processes. Such tests run after all
# the others, two at once, each on half of the CPUs (taskset: vbed places
# its guests and host arm on the CPUs it may run on, util/cpuwindow.h),
# the longest (SECONDS, its time on the developers' machine) first.
# VBED_TEST_PAIRS=0 runs them one at a time.
set -u

here=$(cd "$(dirname "$0")" && pwd)
export VBED_SRC=$(cd "$here/.." && pwd)
export VBED=${VBED:-$VBED_SRC/vbed}
export VBED_TESTS_DATA=$VBED_SRC/tests/data
logroot=$VBED_SRC/build/test-logs
filter=${VBED_TEST_FILTER:-.}
exclude=${VBED_TEST_EXCLUDE:-}
# is test NAME one to run?
chosen() { echo "$1" | grep -Eq -- "$filter" && { [ -z "$exclude" ] || ! echo "$1" | grep -Eq -- "$exclude"; }; }

if [ "${VBED_UPDATE_GOLDEN:-0}" = 1 ] && { [ "${CI:-}" = 1 ] || [ "${VBED_TEST_NO_SKIP:-0}" = 1 ]; }; then
  echo "run-tests: VBED_UPDATE_GOLDEN=1 is refused under CI: it makes every golden file pass" >&2
  exit 2
fi

pass=0 fail=0 skip=0 deferred=0
failed=()
paired=()
times=()

# run one test; its exit code and seconds go to stdout ("RC SECS")
exec_test() { # suite name command...
  local suite=$1 name=$2; shift 2
  mkdir -p "$logroot/$suite"
  local log=$logroot/$suite/$name.log
  local tmp; tmp=$(mktemp -d /tmp/vbed-test.XXXXXX)
  local start=$SECONDS
  ( cd "$VBED_SRC" && VBED_TEST_TMP=$tmp "$@" ) >"$log" 2>&1
  local rc=$? secs=$((SECONDS - start))
  # VBED_TEST_KEEP=1: the test's directory stays for a look (its path in the log)
  if [ "${VBED_TEST_KEEP:-0}" = 1 ]; then echo "kept: $tmp" >>"$log"; else rm -rf "$tmp"; fi
  echo "$rc $secs"
}

run_one() { # suite name command...
  local suite=$1 name=$2; shift 2
  chosen "$name" || return 0
  local r; r=$(exec_test "$suite" "$name" "$@")
  account "$suite" "$name" ${r% *} ${r#* } ""
}

# count and print a test's result
account() { # suite name rc secs note
  local suite=$1 name=$2 rc=$3 secs=$4 note=$5
  local log=$logroot/$suite/$name.log
  times+=("$secs $suite/$name")
  if [ $rc -eq 0 ]; then
    pass=$((pass + 1)); printf 'PASS  %-10s %-40s %4ss%s\n' "$suite" "$name" "$secs" "$note"
  elif [ $rc -eq 77 ] && [ "${VBED_TEST_NO_SKIP:-0}" != 1 ]; then
    skip=$((skip + 1)); printf 'SKIP  %-10s %-40s %s\n' "$suite" "$name" "$(tail -n 1 "$log")"
  else
    # why first, on lines of their own (a CI page may show only part of a
    # long log): the test's own "FAIL: " lines (tests/lib.sh), then the
    # log's tail, each line cut at 400 characters (the whole log stays)
    local why; why=$(grep -a -m 3 '^FAIL: ' "$log" | cut -c1-400)
    fail=$((fail + 1)); failed+=("$suite/$name${why:+ -- ${why%%$'\n'*}}")
    printf 'FAIL  %-10s %-40s %4ss (exit %d)%s\n' "$suite" "$name" "$secs" "$rc" "$note"
    [ $rc -eq 77 ] && echo "      (skipped, but VBED_TEST_NO_SKIP=1 forbids skipping)"
    [ -z "$why" ] || printf '%s\n' "$why" | sed 's/^/      why: /'
    tail -n 25 "$log" | cut -c1-400 | sed 's/^/      | /'
    echo "      (the whole log: $log)"
  fi
}

# a file that should be a test but cannot run is a failure, not a skip
broken() { # SUITE NAME WHY
  fail=$((fail + 1)); failed+=("$1/$2")
  printf 'FAIL  %-10s %-40s %s\n' "$1" "$2" "$3"
}

for suite in "$@"; do
  before=$((pass + fail + skip + deferred))
  case $suite in
    unit)
      bindir=${VBED_TEST_BIN_DIR:?VBED_TEST_BIN_DIR must name the built unit tests}
      for t in "$bindir"/test_*; do
        [ -e "$t" ] || continue
        chosen "$(basename "$t")" || continue
        if [ ! -x "$t" ]; then broken unit "$(basename "$t")" "not executable"; continue; fi
        run_one unit "$(basename "$t")" "$t"
      done ;;
    *)
      [ -d "$here/$suite" ] || { echo "run-tests: no suite '$suite'" >&2; exit 2; }
      for t in "$here/$suite"/*.sh; do
        [ -e "$t" ] || continue
        n=$(basename "$t" .sh)
        secs=$(sed -n 's/^# vbed-test: paired \([0-9][0-9]*\)\( .*\)\{0,1\}$/\1/p' "$t" | head -n 1)
        if [ -n "$secs" ] && chosen "$n"; then
          paired+=("$secs $suite $n")
          deferred=$((deferred + 1))
          continue
        fi
        run_one "$suite" "$n" bash "$t"
      done ;;
  esac
  # a suite that ran nothing passes nothing (a filter or an exclusion may
  # leave none on purpose)
  if [ $((pass + fail + skip + deferred)) -eq "$before" ] && [ "$filter" = . ] && [ -z "$exclude" ]; then
    broken "$suite" "(suite)" "ran no test"
  fi
done

# the paired tests: two lanes of half the CPUs each, the longest first
run_paired() {
  [ ${#paired[@]} -gt 0 ] || return 0
  local order; mapfile -t order < <(printf '%s\n' "${paired[@]}" | sort -rn)
  local n; n=$(nproc)
  local entry
  if [ "$n" -lt 2 ] || [ "${VBED_TEST_PAIRS:-1}" = 0 ]; then
    for entry in "${order[@]}"; do
      set -- $entry
      run_one "$2" "$3" bash "$VBED_SRC/tests/$2/$3.sh"
    done
    return 0
  fi
  local half=$((n / 2))
  local cpus=("0-$((half - 1))" "$half-$((n - 1))")
  [ "$half" -gt 1 ] || cpus[0]=0
  [ $((n - half)) -gt 1 ] || cpus[1]=$half
  local res; res=$(mktemp -d /tmp/vbed-pairs.XXXXXX)
  local pid=("" "") job=("" "") i=0 lane done_pid
  echo "two at a time (CPUs ${cpus[0]} | ${cpus[1]}): ${#order[@]} tests"
  while :; do
    for lane in 0 1; do
      if [ -z "${pid[$lane]}" ] && [ $i -lt ${#order[@]} ]; then
        set -- ${order[$i]}
        exec_test "$2" "$3" taskset -c "${cpus[$lane]}" bash "$VBED_SRC/tests/$2/$3.sh" >"$res/$i" &
        pid[$lane]=$!
        job[$lane]=$i
        i=$((i + 1))
      fi
    done
    [ -n "${pid[0]}${pid[1]}" ] || break
    local running=()
    for lane in 0 1; do [ -z "${pid[$lane]}" ] || running+=("${pid[$lane]}"); done
    done_pid=
    wait -n -p done_pid "${running[@]}"
    for lane in 0 1; do
      [ "${pid[$lane]}" = "$done_pid" ] || continue
      set -- ${order[${job[$lane]}]}
      local r; r=$(cat "$res/${job[$lane]}")
      [ -n "$r" ] || r="2 0"
      account "$2" "$3" ${r% *} ${r#* } "  (CPUs ${cpus[$lane]})"
      pid[$lane]=""
    done
  done
  rm -rf "$res"
}
run_paired

echo "---"
if [ ${#times[@]} -gt 0 ]; then
  echo "slowest:"
  printf '%s\n' "${times[@]}" | sort -rn | head -n 10 | awk '{ printf "  %5d s  %s\n", $1, $2 }'
fi
echo "$pass passed, $fail failed, $skip skipped in $((SECONDS / 60)) min $((SECONDS % 60)) s"
[ $fail -eq 0 ] || { printf 'failed: %s\n' "${failed[@]}"; exit 1; }
