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

contains() { # HAYSTACK NEEDLE -- also across a report's wrapped prose
  case $1 in *"$2"*) return 0 ;; esac
  case $(unwrapped "$1") in *"$2"*) return 0 ;; esac
  echo "expected to find: $2" >&2; echo "in: $1" >&2; return 1
}
# a report's text with its wrapped lines joined: a continuation line is
# indented four spaces deeper than the line it continues (report/format_text.c)
unwrapped() {
  printf '%s\n' "$1" | awk '
    { match($0, /^ *(- )?/); ind = RLENGTH }
    have && line != "" && ind == pind + 4 && $0 !~ /^ *\|/ { line = line " " substr($0, ind + 1); next }
    { if (have) print line; line = $0; pind = ind; have = 1 }
    END { if (have) print line }'
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
  if [ "${VBED_UPDATE_GOLDEN:-0}" = 1 ] && { [ "${CI:-}" = 1 ] || [ "${VBED_TEST_NO_SKIP:-0}" = 1 ]; }; then
    fail "VBED_UPDATE_GOLDEN=1 under CI: a rewritten golden file would pass anything"
  elif [ "${VBED_UPDATE_GOLDEN:-0}" = 1 ]; then
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

# forget_prepared IMG TABLES TABLE_SIZE OPTIONS: the copies of sysbench's
# tables in image directory IMG's cache (prepared/<key>/, their sizes in
# its meta.json) of TABLES x TABLE_SIZE rows whose table options match the
# regex OPTIONS are removed, so that the run after loads them again
forget_prepared() {
  local m
  for m in "$1"/prepared/*/meta.json; do
    [ -f "$m" ] || continue
    jq -e --argjson n "$2" --argjson rows "$3" --arg o "$4" \
      '.tables == $n and .table_size == $rows and (.table_options | test($o))' "$m" >/dev/null &&
      rm -rf "$(dirname "$m")"
  done
  return 0
}

# The newest results directory under DIR
latest_results() { ls -td "$1"/*/ 2>/dev/null | head -n 1; }

# miniature SHIPPED OUT N SED-ARGS...: a shipped scenario with its sizes made
# smaller for TCG by sed into OUT; exactly N of its lines changed, so that a
# shipped file that lost or doubled one of those keys fails
miniature() {
  local shipped=$1 out=$2 n=$3
  shift 3
  sed "$@" "$shipped" > "$out" || fail "sed on $shipped"
  [ "$(diff "$shipped" "$out" | grep -c '^>')" -eq "$n" ] ||
    fail "$shipped no longer has the $n lines its miniature makes smaller"
}

# run_json SESSION SCENARIO: `vbed run` of SCENARIO as session SESSION into
# $VBED_TEST_TMP/res, which must succeed and leave nothing; then its JSON
# report, which must parse, in $json
run_json() {
  expect_rc 0 "$VBED" run --id "$1" -o "$VBED_TEST_TMP/res" "$2"
  echo "$out"
  assert_nothing_left "$1"
  expect_rc 0 "$VBED" report --format json --no-html "$(latest_results "$VBED_TEST_TMP/res")"
  json=$out
  echo "$json" | jq -e . >/dev/null || fail "the JSON report does not parse"
}

# report_figure JSON LABEL ARM JQ-PATH: one number from `vbed report
# --format json` (JSON), of arm ARM in the variant labelled LABEL; no number
# (a missing figure, null, two of them) prints why and returns 1
report_figure() {
  local v
  v=$(echo "$1" | jq -r --arg l "$2" --arg a "$3" ".variants[] | select(.label == \$l) | .arms[] | select(.name == \$a) | $4")
  awk -v v="$v" 'BEGIN { exit !(v ~ /^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$/) }' || {
    echo "FAIL: $2, $3: $4 is '$v'" >&2
    return 1
  }
  echo "$v"
}

# guest_status URI DOMAIN SECONDS POLL PATH ARG...: run PATH with ARGs in the
# guest through its agent (as vbed does), its output captured; prints the
# agent's guest-exec-status reply once the program ended, asking every POLL s,
# or nothing if the agent did not answer or the program did not end within
# about SECONDS.
guest_status() {
  local uri=$1 dom=$2 secs=$3 poll=$4 path=$5; shift 5
  local args r gpid i st
  args=$(printf '%s\n' "$@" | jq -R . | jq -sc .)
  r=$(virsh -c "$uri" qemu-agent-command "$dom" \
    "{\"execute\":\"guest-exec\",\"arguments\":{\"path\":\"$path\",\"arg\":$args,\"capture-output\":true}}" 2>/dev/null) || return 0
  gpid=$(echo "$r" | jq -r .return.pid)
  for i in $(seq 1 "$(awk -v s="$secs" -v p="$poll" 'BEGIN { print int(s / p) }')"); do
    st=$(virsh -c "$uri" qemu-agent-command "$dom" \
      "{\"execute\":\"guest-exec-status\",\"arguments\":{\"pid\":$gpid}}" 2>/dev/null) || return 0
    if [ "$(echo "$st" | jq -r .return.exited)" = true ]; then
      echo "$st"
      return 0
    fi
    sleep "$poll"
  done
}

# guest_exit URI DOMAIN PATH ARG...: PATH's exit code in the guest
# (guest_status, up to 10 s), or nothing.
guest_exit() {
  local uri=$1 dom=$2; shift 2
  guest_status "$uri" "$dom" 10 0.2 "$@" | jq -r '.return.exitcode // empty'
}

# wait_guest_proc DOMAIN NAME [SECONDS] [URI]: wait until a process named NAME
# runs in the guest (pgrep -x through its agent), up to SECONDS (default 120);
# fail otherwise. For "the workload has started in the guest", never a sleep.
wait_guest_proc() {
  local dom=$1 name=$2 secs=${3:-120} uri=${4:-qemu:///system} end=$((SECONDS + ${3:-120}))
  while [ $SECONDS -lt $end ]; do
    [ "$(guest_exit "$uri" "$dom" /usr/bin/pgrep -x "$name")" = 0 ] && return 0
    sleep 0.5
  done
  fail "no $name ran in $dom within $secs s"
}

# wait_proc PATTERN [SECONDS]: wait until a process of this machine whose
# command line matches PATTERN (pgrep -f) runs, up to SECONDS (default 60).
wait_proc() {
  local pattern=$1 secs=${2:-60} end=$((SECONDS + ${2:-60}))
  while [ $SECONDS -lt $end ]; do
    pgrep -f -- "$pattern" >/dev/null && return 0
    sleep 0.2
  done
  fail "no process matching '$pattern' within $secs s"
}

# wait_file_bytes FILE [SECONDS]: wait until FILE exists and holds bytes (a
# raw log being written), up to SECONDS (default 60).
wait_file_bytes() {
  local f=$1 secs=${2:-60} end=$((SECONDS + ${2:-60}))
  while [ $SECONDS -lt $end ]; do
    [ -s "$f" ] && return 0
    sleep 0.2
  done
  fail "$f held no bytes within $secs s"
}

# report_matches_samples RESULTS_DIR: `vbed report --format json` of
# RESULTS_DIR against figures recomputed here from its samples.jsonl and
# meta.json alone: per variant and arm, the number of counted runs, the
# mean TPS (tps_arm over its runs), TPS per guest (that over the arm's
# guests) and every ratio (per guest or aggregate, as its basis says), each
# within 0.5 %. Prints what it compared; returns 1 on the first difference.
report_matches_samples() {
  local r=$1 json
  json=$("$VBED" report --format json --no-html "$r") || { echo "vbed report failed on $r"; return 1; }
  R=$r JSON=$json python3 - <<'PY'
import json, os, sys
r = os.environ["R"]
rep = json.loads(os.environ["JSON"])
meta = json.load(open(os.path.join(r, "meta.json")))
samples = [json.loads(l) for l in open(os.path.join(r, "samples.jsonl")) if l.strip()]
ok_runs = {run["run"] for run in meta.get("runs", []) if run.get("status") == "ok"}
guests_of = {run["run"]: int(run.get("config", {}).get("guests", "1") or 1) for run in meta.get("runs", [])}
near = lambda a, b: abs(a - b) <= 0.005 * max(abs(b), 1e-12)
bad = 0
for v in rep["variants"]:
    idx = v["index"]
    per = {}
    for arm in v["arms"]:
        vals = [(s["value"], s["labels"]["run"]) for s in samples
                if s["metric"] == "tps_arm" and s["labels"].get("arm") == arm["name"]
                and idx in s["labels"].get("variants", []) and s["labels"]["run"] in ok_runs]
        if not vals:
            continue
        mean = sum(x for x, _ in vals) / len(vals)
        g = guests_of[vals[0][1]]
        per[arm["name"]] = (mean, mean / g)
        checks = [("n", arm["tps"]["n"] == len(vals)), ("tps", near(arm["tps"]["mean"], mean)),
                  ("tps_per_guest", near(arm["tps_per_guest"]["mean"], mean / g))]
        print("variant %d, %s: %d runs, %.4g TPS, %.4g per guest (%d guests)" % (idx, arm["name"], len(vals), mean, mean / g, g))
        for name, ok in checks:
            if not ok:
                print("  the report's %s differs: %s" % (name, json.dumps(arm.get(name.split("_per")[0] if name != "tps_per_guest" else name))))
                bad += 1
    for ratio in v.get("ratios", []):
        a, b = ratio["name"].split("/")
        if a not in per or b not in per:
            continue
        k = 1 if ratio["basis"] == "per_guest" else 0
        want = per[a][k] / per[b][k]
        print("variant %d, %s (%s): %.4g, report %.4g" % (idx, ratio["name"], ratio["basis"], want, ratio["value"]))
        if not near(ratio["value"], want):
            bad += 1
sys.exit(1 if bad else 0)
PY
}
