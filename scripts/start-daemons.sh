#!/usr/bin/env bash
# start-daemons.sh: start virtlogd and libvirtd when they are not running.
#
# vbed's development and CI machines have no systemd as PID 1, so nothing
# starts libvirt for us. On a host with systemd this script only checks.
# Used by `make demo`, the tests and .ci/run. Idempotent.
set -euo pipefail

if [ "$(id -u)" -ne 0 ]; then
  echo "start-daemons: not root; qemu:///system needs root (qemu:///session starts its own daemon)" >&2
  exit 0
fi

if [ -d /run/systemd/system ]; then
  for unit in virtlogd libvirtd; do
    systemctl is-active --quiet "$unit" || systemctl start "$unit"
  done
  exit 0
fi

# cgroup controllers: libvirt and vbed's host arm want them mounted
if ! mountpoint -q /sys/fs/cgroup && [ -x /usr/bin/cgroupfs-mount ]; then
  /usr/bin/cgroupfs-mount || true
fi

# Without udev, /dev/kvm stays root-only (0600). libvirt then finds KVM
# "not accessible" to the libvirt-qemu user although its QEMU probe used it,
# throws its capabilities cache away and re-probes every QEMU binary on
# every domain start (measured: 36 s per start instead of 0.6 s). Give
# /dev/kvm the owner and mode udev gives it on Debian.
if [ -c /dev/kvm ] && getent group kvm >/dev/null; then
  chown root:kvm /dev/kvm && chmod 0660 /dev/kvm
fi

# By their pid files, not by name: another libvirtd may run on this machine
# in its own mount namespace (the two-host test's second "host").
# A killed daemon stays a zombie here (PID 1 reaps no orphans): not alive.
alive() { # PIDFILE NAME
  local p; p=$(cat "$1" 2>/dev/null) || return 1
  [ -n "$p" ] && [ "$(cat "/proc/$p/comm" 2>/dev/null)" = "$2" ] &&
    [ "$(cut -d' ' -f3 "/proc/$p/stat" 2>/dev/null)" != Z ]
}
answers() { virsh -c qemu:///system version >/dev/null 2>&1; }
# A daemon keeps every descriptor it inherits: started from a test under
# flock(1), libvirtd held the lock for as long as it ran. Close them first.
bare() {
  (
    for fd in /proc/$BASHPID/fd/*; do
      fd=${fd##*/}
      [ "$fd" -gt 2 ] && eval "exec $fd>&-"
    done
    exec "$@"
  )
}
alive /run/virtlogd.pid virtlogd || bare virtlogd -d
# libvirtd under tini (scripts/run-libvirtd.sh says why)
if ! answers && ! alive /run/libvirtd.pid libvirtd; then
  bare bash "$(dirname "$0")/run-libvirtd.sh"
fi

# wait until qemu:///system answers (measured ~4 s on a cold start)
for _ in $(seq 1 60); do
  if answers; then
    echo "start-daemons: libvirtd answers at qemu:///system"
    exit 0
  fi
  sleep 0.5
done
echo "start-daemons: libvirtd did not answer at qemu:///system within 30 s" >&2
echo "start-daemons: see /var/log/libvirt/libvirtd-stderr.log and /var/log/libvirt/libvirtd.log" >&2
exit 1
