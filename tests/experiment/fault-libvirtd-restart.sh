# fault-libvirtd-restart.sh: libvirtd restarted while a guest boots (--cold). QEMU
# survives a libvirtd that is killed, and a restarted libvirtd no longer ties the
# guest to vbed's (lost) connection: vbed must notice the loss, fail the run
# with a reason that names the guest and the phase, connect again, and
# destroy the guest and delete its disks itself. Exit 1; the host arm
# measured before stays in samples.jsonl with its raw log; the guest's
# console log is kept; nothing of the run is left.
. "$VBED_SRC/tests/lib.sh"
need_libvirt
need_prog jq

# libvirtd killed and started again. (A restart by SIGTERM deadlocks
# libvirt 9.0 here when a client with AUTODESTROY domains goes away during
# its shutdown -- seen: main thread in qemuProcessAutoDestroy, the shutdown
# thread holding the daemon lock -- and systemd would end it with SIGKILL
# after its stop timeout. SIGKILL is also the case where QEMU survives.)
# a failing check: vbed interrupted, and its cleanup waited for (libvirtd
# back first) -- a test that left it cleaning up alone once left a volume
# behind when libvirtd went away meanwhile, and the next run of this test
# (same --id) failed on it
stop_vbed() {
  bash "$VBED_SRC/scripts/start-daemons.sh" >/dev/null
  kill "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
}
restart_libvirtd() {
  local lvd; lvd=$(cat /run/libvirtd.pid) || fail "no /run/libvirtd.pid"
  prompt_reaper "$(pgrep -f "qemu-system.*vbed-e2elvd-")" "$lvd"
  kill -KILL "$lvd"
  for _ in $(seq 1 20); do [ -d "/proc/$lvd" ] && [ "$(cut -d' ' -f3 "/proc/$lvd/stat")" != Z ] || break; sleep 0.5; done
  # the case this test is about: QEMU outlives the killed libvirtd, so
  # vbed's own cleanup (not AUTODESTROY) has to remove it. Looked for
  # before libvirtd is back: vbed connects again within a second of it and
  # may have removed the guest by the time start-daemons.sh returns (a CI
  # run saw exactly that).
  qemu_pid=$(pgrep -f "qemu-system.*vbed-e2elvd-") ||
    { stop_vbed; fail "the guest's QEMU did not survive libvirtd's death: nothing was left for vbed to clean up"; }
  echo "the guest's QEMU ($qemu_pid) survived libvirtd's death"
  bash "$VBED_SRC/scripts/start-daemons.sh" >/dev/null ||
    bash "$VBED_SRC/scripts/start-daemons.sh" >/dev/null || fail "libvirtd did not start again"
  # the libvirtd the tests after this one use: under tini again
  under_tini "$(cat /run/libvirtd.pid)" || fail "start-daemons.sh started libvirtd again, not under tini"
}
# QEMU leaves libvirtd by a double fork and belongs to whoever reaps
# libvirtd's orphans, and libvirt's destroy waits until it is reaped: where
# PID 1 is not systemd, libvirtd must run under tini -s, which reaps them at
# once (scripts/run-libvirtd.sh says why and what it saves). A libvirtd
# started otherwise (libvirtd -d, tini not installed) fails here.
ppid() { ps -o ppid= -p "$1" | tr -d ' '; }
under_tini() { # PID: its parent is tini
  local pp; pp=$(ppid "$1")
  [ -n "$pp" ] && [ "$(cat "/proc/$pp/comm" 2>/dev/null)" = tini ]
}
prompt_reaper() { # QEMU_PID LIBVIRTD_PID
  [ -n "$1" ] || { stop_vbed; fail "no QEMU of the guest before libvirtd was killed"; }
  [ ! -d /run/systemd/system ] || return 0
  under_tini "$2" || { stop_vbed; fail "libvirtd ($2) does not run under tini (scripts/start-daemons.sh; make deps installs tini)"; }
  [ "$(ppid "$1")" = "$(ppid "$2")" ] ||
    { stop_vbed; fail "the guest's QEMU ($1) is not reaped by libvirtd's tini but by $(ppid "$1")"; }
  echo "the guest's QEMU ($1) is reaped by tini, libvirtd's parent"
}
trap 'bash "$VBED_SRC/scripts/start-daemons.sh" >/dev/null' EXIT

log=$VBED_TEST_TMP/log
"$VBED" run --cold --id e2elvd -o "$VBED_TEST_TMP/res" tests/data/scenarios/host-and-guest.ini >"$log" 2>&1 &
pid=$!
wait_for_log "$log" $pid 'guest-1: booting: waiting for the guest agent' 1 400
dom=vbed-e2elvd-002-guest-1
# libvirtd goes only once the console has something to keep: the wait is
# for that line, not for a fixed time (on a machine 2-4x slower than the
# developers' a fixed 15 s came before it and the kept log was empty). No
# cap on the guest's CPU to make it late (a quarter of a CPU did, once:
# 25-35 s of a test that runs alone, spent waiting): under TCG the
# agent answers 15-20 s after the kernel's first line, on KVM a few
# seconds after it, and vbed sees the lost connection at once
console=/var/lib/vbed/pool/$dom-console.log
for _ in $(seq 1 600); do [ -s "$console" ] && break; kill -0 $pid 2>/dev/null || break; sleep 0.5; done
[ -s "$console" ] || { cat "$log"; fail "$dom wrote nothing to its console within 300 s"; }
echo "console: $(wc -c < "$console") bytes before libvirtd is killed"
restart_libvirtd
wait $pid
rc=$?
cat "$log"
[ $rc -eq 1 ] || fail "exit code $rc, expected 1"
grep -q "vbed-e2elvd-002-guest-1 failed in phase boot: the connection to libvirt was lost" "$log" ||
  fail "the reason does not name the guest, the phase and the lost connection"
grep -q "connected to libvirt at .* again" "$log" || fail "vbed did not connect again to clean up"
assert_nothing_left e2elvd
for q in $qemu_pid; do [ ! -d /proc/$q ] || fail "the guest's QEMU ($q) is still running"; done
r=$(latest_results "$VBED_TEST_TMP/res")
assert_host_arm_kept "$r"
jq -e '.runs[1].status == "failed" and (.runs[1].reason | test("phase boot: the connection to libvirt was lost"))' \
  "$r/meta.json" >/dev/null || fail "meta.json does not mark the guest run failed with its reason"
ls -la "$r/runs/002-guest/guest-1/"
[ -s "$r/runs/002-guest/guest-1/console.log" ] || fail "the guest's console log was not kept"
