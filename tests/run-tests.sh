#!/usr/bin/env bash
# run-tests.sh: run vbed's test suites and summarise.
#
#   bash tests/run-tests.sh SUITE...      (make test / make check call this)
#
# Suites: unit (cmocka binaries in $VBED_TEST_BIN_DIR), and directories of
# shell tests: cli, lifecycle, image, guests, experiment, report. A test
# passes with exit 0, is skipped with exit 77 (it must say why), fails
# otherwise. With VBED_TEST_NO_SKIP=1 (CI) a skip counts as a failure.
# VBED_TEST_FILTER=REGEX runs only the tests whose name matches;
# VBED_TEST_KEEP=1 keeps each test's directory (its path ends the log). A suite
# that runs no test fails (unless a filter left none), and so does a unit
# test file that is not executable. CI (CI=1 or VBED_TEST_NO_SKIP=1) refuses
# VBED_UPDATE_GOLDEN: a golden file rewritten there would pass anything.
# At the end: the ten slowest tests.
# Logs: build/test-logs/<suite>/<test>.log
set -u

here=$(cd "$(dirname "$0")" && pwd)
export VBED_SRC=$(cd "$here/.." && pwd)
export VBED=${VBED:-$VBED_SRC/vbed}
export VBED_TESTS_DATA=$VBED_SRC/tests/data
logroot=$VBED_SRC/build/test-logs
filter=${VBED_TEST_FILTER:-.}

if [ "${VBED_UPDATE_GOLDEN:-0}" = 1 ] && { [ "${CI:-}" = 1 ] || [ "${VBED_TEST_NO_SKIP:-0}" = 1 ]; }; then
  echo "run-tests: VBED_UPDATE_GOLDEN=1 is refused under CI: it makes every golden file pass" >&2
  exit 2
fi

pass=0 fail=0 skip=0
failed=()
times=()

run_one() { # suite name command...
  local suite=$1 name=$2; shift 2
  echo "$name" | grep -Eq -- "$filter" || return 0
  mkdir -p "$logroot/$suite"
  local log=$logroot/$suite/$name.log
  local tmp; tmp=$(mktemp -d /tmp/vbed-test.XXXXXX)
  local start=$SECONDS
  ( cd "$VBED_SRC" && VBED_TEST_TMP=$tmp "$@" ) >"$log" 2>&1
  local rc=$? secs=$((SECONDS - start))
  times+=("$secs $suite/$name")
  # VBED_TEST_KEEP=1: the test's directory stays for a look (its path in the log)
  if [ "${VBED_TEST_KEEP:-0}" = 1 ]; then echo "kept: $tmp" >>"$log"; else rm -rf "$tmp"; fi
  if [ $rc -eq 0 ]; then
    pass=$((pass + 1)); printf 'PASS  %-10s %-40s %4ss\n' "$suite" "$name" "$secs"
  elif [ $rc -eq 77 ] && [ "${VBED_TEST_NO_SKIP:-0}" != 1 ]; then
    skip=$((skip + 1)); printf 'SKIP  %-10s %-40s %s\n' "$suite" "$name" "$(tail -n 1 "$log")"
  else
    fail=$((fail + 1)); failed+=("$suite/$name")
    printf 'FAIL  %-10s %-40s %4ss (exit %d)\n' "$suite" "$name" "$secs" "$rc"
    [ $rc -eq 77 ] && echo "      (skipped, but VBED_TEST_NO_SKIP=1 forbids skipping)"
    tail -n 25 "$log" | sed 's/^/      | /'
  fi
}

# a file that should be a test but cannot run is a failure, not a skip
broken() { # SUITE NAME WHY
  fail=$((fail + 1)); failed+=("$1/$2")
  printf 'FAIL  %-10s %-40s %s\n' "$1" "$2" "$3"
}

for suite in "$@"; do
  before=$((pass + fail + skip))
  case $suite in
    unit)
      bindir=${VBED_TEST_BIN_DIR:?VBED_TEST_BIN_DIR must name the built unit tests}
      for t in "$bindir"/test_*; do
        [ -e "$t" ] || continue
        echo "$(basename "$t")" | grep -Eq -- "$filter" || continue
        if [ ! -x "$t" ]; then broken unit "$(basename "$t")" "not executable"; continue; fi
        run_one unit "$(basename "$t")" "$t"
      done ;;
    *)
      [ -d "$here/$suite" ] || { echo "run-tests: no suite '$suite'" >&2; exit 2; }
      for t in "$here/$suite"/*.sh; do
        [ -e "$t" ] || continue
        run_one "$suite" "$(basename "$t" .sh)" bash "$t"
      done ;;
  esac
  # a suite that ran nothing passes nothing (a filter may leave none on purpose)
  if [ $((pass + fail + skip)) -eq "$before" ] && [ "$filter" = . ]; then
    broken "$suite" "(suite)" "ran no test"
  fi
done

echo "---"
if [ ${#times[@]} -gt 0 ]; then
  echo "slowest:"
  printf '%s\n' "${times[@]}" | sort -rn | head -n 10 | awk '{ printf "  %5d s  %s\n", $1, $2 }'
fi
echo "$pass passed, $fail failed, $skip skipped in $((SECONDS / 60)) min $((SECONDS % 60)) s"
[ $fail -eq 0 ] || { printf 'failed: %s\n' "${failed[@]}"; exit 1; }
