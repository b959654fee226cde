#!/usr/bin/env bash
# run-tests.sh: run vbed's test suites and summarise.
#
#   bash tests/run-tests.sh SUITE...      (make test / make check call this)
#
# Suites: unit (cmocka binaries in $VBED_TEST_BIN_DIR), and directories of
# shell tests: cli, lifecycle, image, guests, experiment, report. A test
# passes with exit 0, is skipped with exit 77 (it must say why), fails
# otherwise. With VBED_TEST_NO_SKIP=1 (CI) a skip counts as a failure.
# VBED_TEST_FILTER=REGEX runs only the tests whose name matches.
# Logs: build/test-logs/<suite>/<test>.log
set -u

here=$(cd "$(dirname "$0")" && pwd)
export VBED_SRC=$(cd "$here/.." && pwd)
export VBED=${VBED:-$VBED_SRC/vbed}
export VBED_TESTS_DATA=$VBED_SRC/tests/data
logroot=$VBED_SRC/build/test-logs
filter=${VBED_TEST_FILTER:-.}

pass=0 fail=0 skip=0
failed=()

run_one() { # suite name command...
  local suite=$1 name=$2; shift 2
  echo "$name" | grep -Eq -- "$filter" || return 0
  mkdir -p "$logroot/$suite"
  local log=$logroot/$suite/$name.log
  local tmp; tmp=$(mktemp -d /tmp/vbed-test.XXXXXX)
  local start=$SECONDS
  ( cd "$VBED_SRC" && VBED_TEST_TMP=$tmp "$@" ) >"$log" 2>&1
  local rc=$? secs=$((SECONDS - start))
  rm -rf "$tmp"
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

for suite in "$@"; do
  case $suite in
    unit)
      bindir=${VBED_TEST_BIN_DIR:?VBED_TEST_BIN_DIR must name the built unit tests}
      for t in "$bindir"/test_*; do
        [ -x "$t" ] || continue
        run_one unit "$(basename "$t")" "$t"
      done ;;
    *)
      [ -d "$here/$suite" ] || { echo "run-tests: no suite '$suite'" >&2; exit 2; }
      for t in "$here/$suite"/*.sh; do
        [ -e "$t" ] || continue
        run_one "$suite" "$(basename "$t" .sh)" bash "$t"
      done ;;
  esac
done

echo "---"
echo "$pass passed, $fail failed, $skip skipped in $((SECONDS / 60)) min $((SECONDS % 60)) s"
[ $fail -eq 0 ] || { printf 'failed: %s\n' "${failed[@]}"; exit 1; }
