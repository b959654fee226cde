# lib.sh: helpers for vbed's shell tests (source it).
# Every test gets $VBED (the binary), $VBED_SRC (the source tree) and
# $VBED_TEST_TMP (a scratch directory removed afterwards).
set -u

fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "SKIP: $*"; exit 77; }

# expect_rc WANT CMD... : run CMD, capture stdout/stderr in $out/$err
expect_rc() {
  local want=$1; shift
  out=$("$@" 2>"$VBED_TEST_TMP/stderr"); rc=$?
  err=$(cat "$VBED_TEST_TMP/stderr")
  if [ "$rc" -ne "$want" ]; then
    echo "command: $*" >&2; echo "stdout: $out" >&2; echo "stderr: $err" >&2
    fail "exit code $rc, expected $want"
  fi
}

contains() { # HAYSTACK NEEDLE
  case $1 in *"$2"*) return 0 ;; esac
  echo "expected to find: $2" >&2; echo "in: $1" >&2; return 1
}

need_root() { [ "$(id -u)" -eq 0 ] || skip "needs root"; }
need_prog() { command -v "$1" >/dev/null 2>&1 || skip "needs $1 (make deps)"; }
