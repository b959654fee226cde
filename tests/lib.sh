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

# Start virtlogd and libvirtd if they do not run (no systemd here).
need_libvirt() {
  need_root
  bash "$VBED_SRC/scripts/start-daemons.sh" >/dev/null || fail "cannot start libvirt"
}

# Nothing of a vbed session left: no domain, no per-guest volume, no host
# arm directory, no qemu or mariadbd of it.
assert_nothing_left() { # SESSION
  local s=$1
  local doms; doms=$(virsh -c qemu:///system list --all --name | grep -- "vbed-$s-" || true)
  [ -z "$doms" ] || fail "domains left: $doms"
  local vols; vols=$(ls /var/lib/vbed/pool 2>/dev/null | grep -- "vbed-$s-" || true)
  [ -z "$vols" ] || fail "disks left: $vols"
  local hosts; hosts=$(ls /var/lib/vbed/host 2>/dev/null | grep -- "vbed-$s-" || true)
  [ -z "$hosts" ] || fail "host arm directories left: $hosts"
  if pgrep -af "qemu-system.*vbed-$s-" >/dev/null; then fail "qemu processes left: $(pgrep -af "qemu-system.*vbed-$s-")"; fi
  if pgrep -af "mariadbd.*vbed-$s-" >/dev/null; then fail "mariadbd left: $(pgrep -af "mariadbd.*vbed-$s-")"; fi
  return 0
}

# wait_for_log LOG PID PATTERN [COUNT] [SECONDS]: wait until LOG holds
# COUNT lines matching PATTERN (default 1, up to 300 s); fail if process PID
# ends first or time runs out.
wait_for_log() {
  local log=$1 pid=$2 pattern=$3 count=${4:-1} secs=${5:-300} i
  for i in $(seq 1 $((secs * 2))); do
    [ "$(grep -c -- "$pattern" "$log")" -ge "$count" ] && return 0
    kill -0 "$pid" 2>/dev/null || { cat "$log"; fail "vbed ended before '$pattern' appeared"; }
    sleep 0.5
  done
  cat "$log"
  fail "'$pattern' did not appear within $secs s"
}

# A fault test's results directory R: every line of samples.jsonl parses,
# and the host arm that ran before the fault kept its TPS and raw log.
assert_host_arm_kept() { # R
  local r=$1
  jq -c . "$r/samples.jsonl" >/dev/null || fail "samples.jsonl has a line that does not parse"
  [ "$(jq -r 'select(.metric == "tps_arm" and .labels.arm == "host") | .value' "$r/samples.jsonl" | wc -l)" -eq 1 ] ||
    fail "the host arm, measured before the fault, was not kept"
  ls "$r"/runs/001-host/*/sysbench-measure.out >/dev/null || fail "the host arm's raw log was not kept"
}

# check_golden FILE TEXT: TEXT equals the golden FILE (VBED_UPDATE_GOLDEN=1
# rewrites FILE instead).
check_golden() {
  printf '%s\n' "$2" > "$VBED_TEST_TMP/golden-out"
  if [ "${VBED_UPDATE_GOLDEN:-0}" = 1 ]; then
    cp "$VBED_TEST_TMP/golden-out" "$1"
  elif ! diff -u "$1" "$VBED_TEST_TMP/golden-out"; then
    fail "output differs from $1"
  fi
}

# report_goldens NAME: the fixture tests/data/results/NAME copied to $res,
# and `vbed report` of it in every format equal to its golden file
# tests/data/report/NAME.<table|csv|json|md>.
report_goldens() {
  res=$VBED_TEST_TMP/$1
  cp -r "tests/data/results/$1" "$res"
  local f format ext
  for f in table:table csv:csv json:json markdown:md; do
    format=${f%%:*} ext=${f#*:}
    expect_rc 0 "$VBED" report --no-html --format="$format" "$res"
    check_golden "tests/data/report/$1.$ext" "$out"
  done
}

# The newest results directory under DIR
latest_results() { ls -td "$1"/*/ 2>/dev/null | head -n 1; }
