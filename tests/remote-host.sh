#!/usr/bin/env bash
# remote-host.sh: a second hypervisor "host" on this machine, for the
# multi-host tests (issue 12): its own libvirtd, virtlogd and sshd in a mount
# namespace of their own, sharing nothing of vbed's filesystem view that
# libvirt or vbed keep state in. vbed reaches it only as a remote host:
#
#   qemu+ssh://root@127.0.0.1:PORT/system?keyfile=STATE/ssh/id_ed25519&no_verify=1
#
#   bash tests/remote-host.sh start [VBED_BINARY]   start it; prints the URI
#   bash tests/remote-host.sh stop                  destroy its domains, stop it, remove STATE
#   bash tests/remote-host.sh uri | status | exec CMD...   (exec: CMD inside the namespace)
#
# Inside the namespace these are private (bind mounts of STATE/...; empty or
# a copy of the directory skeleton only): /etc/libvirt (no pool, network or
# domain definitions of this machine's libvirtd), /var/lib/libvirt,
# /var/cache/libvirt, /var/log/libvirt, /var/lib/vbed (its pool, sessions,
# host arms), /var/cache/vbed (no image cache: the image must arrive through
# libvirt's storage API), /run (libvirt's sockets and pid files).
#
# The helper: vbed runs `vbed host ...` there from PATH. The namespace gets a
# private /usr/local/bin holding a copy of VBED_BINARY (default ./vbed) as
# /usr/local/bin/vbed, as an installed vbed would be on a real host.
#
# A mark only the namespace has: /proc/meminfo there is a copy of this
# machine's with Cached replaced by REMOTE_CACHED_KB (777777 kB), so a
# figure read on the wrong machine cannot pass for the remote host's (tests
# check host_cached_bytes = 777777 KiB for the remote host).
#
# Environment: VBED_REMOTE_STATE (default /var/tmp/vbed-remote-host),
# VBED_REMOTE_PORT (default 2222), VBED_REMOTE_HOSTKEY_DIR (the sshd host key,
# kept across starts; default /var/tmp/vbed-remote-hostkey). Needs root, unshare(1), sshd (openssh-server).
set -euo pipefail

state=${VBED_REMOTE_STATE:-/var/tmp/vbed-remote-host}
port=${VBED_REMOTE_PORT:-2222}
hostkey_dir=${VBED_REMOTE_HOSTKEY_DIR:-/var/tmp/vbed-remote-hostkey}
REMOTE_CACHED_KB=777777

uri() { echo "qemu+ssh://root@127.0.0.1:$port/system?keyfile=$state/ssh/id_ed25519&no_verify=1"; }

# Daemons must not inherit our descriptors: one started under
# `flock /tmp/vbed-tcg.lock` would hold the shared lock for ever.
close_fds() {
  local fd n
  for fd in /proc/$$/fd/*; do
    n=${fd##*/}
    [ "$n" -gt 2 ] 2>/dev/null && eval "exec $n>&-" 2>/dev/null
  done
  return 0
}

holder_pid() { [ -f "$state/holder.pid" ] && cat "$state/holder.pid"; }
alive() { local p; p=$(holder_pid) && [ -n "$p" ] && kill -0 "$p" 2>/dev/null; }

in_ns() { nsenter -t "$(holder_pid)" -m -- "$@"; }

# the directory tree of $1 (no files) into $2, owners and modes kept
skeleton() {
  local src=$1 dst=$2
  mkdir -p "$dst"
  chown --reference="$src" "$dst"; chmod --reference="$src" "$dst"
  (cd "$src" && find . -mindepth 1 -type d -printf '%P\n') | while read -r d; do
    mkdir -p "$dst/$d"
    chown --reference="$src/$d" "$dst/$d"; chmod --reference="$src/$d" "$dst/$d"
  done
}

# libvirtd as scripts/start-daemons.sh starts it (under tini: see
# scripts/run-libvirtd.sh)
run_libvirtd=$(cd "$(dirname "$0")/.." && pwd)/scripts/run-libvirtd.sh

# runs inside the new mount namespace (unshare), then holds it open
inner() {
  close_fds
  mount --make-rprivate /
  mount --bind "$state/etc-libvirt" /etc/libvirt
  for d in lib/libvirt cache/libvirt log/libvirt lib/vbed cache/vbed; do
    mkdir -p "/var/$d"
    mount --bind "$state/var/$d" "/var/$d"
  done
  mount -t tmpfs -o mode=0755 tmpfs /run
  mkdir -p /run/lock /run/sshd /run/libvirt
  chmod 0755 /run/sshd
  mount -t tmpfs -o mode=0755 tmpfs /usr/local/bin
  cp "$state/vbed" /usr/local/bin/vbed
  mount --bind "$state/meminfo" /proc/meminfo
  virtlogd -d
  bash "$run_libvirtd"
  /usr/sbin/sshd -f "$state/ssh/sshd_config" -E "$state/sshd.log"
  echo ready > "$state/ready"
  exec sleep infinity
}

start() {
  local vbed_bin=${1:-./vbed}
  [ "$(id -u)" -eq 0 ] || { echo "remote-host: needs root" >&2; exit 3; }
  command -v unshare >/dev/null && [ -x /usr/sbin/sshd ] ||
    { echo "remote-host: needs unshare and sshd (apt-get install openssh-server)" >&2; exit 3; }
  [ -x "$vbed_bin" ] || { echo "remote-host: no vbed binary at '$vbed_bin'" >&2; exit 2; }
  if alive; then
    # running: bring back a daemon something killed (libvirtd restarts by name elsewhere)
    virsh -c "$(uri)" version >/dev/null 2>&1 || {
      close_fds
      in_ns sh -c 'pgrep -F /run/virtlogd.pid >/dev/null 2>&1 || virtlogd -d'
      in_ns pgrep -F /run/libvirtd.pid >/dev/null 2>&1 || in_ns bash "$run_libvirtd"
      wait_ready; }
    uri; return 0
  fi
  rm -rf "$state"
  mkdir -p "$state/ssh" "$state/var/lib/vbed" "$state/var/cache/vbed"
  chmod 0755 "$state" "$state/var" "$state/var/lib" "$state/var/lib/vbed"
  cp "$vbed_bin" "$state/vbed"
  skeleton /var/lib/libvirt "$state/var/lib/libvirt"
  skeleton /var/cache/libvirt "$state/var/cache/libvirt"
  skeleton /var/log/libvirt "$state/var/log/libvirt"
  # this machine's libvirt configuration, without its pools, networks and domains
  cp -a /etc/libvirt "$state/etc-libvirt"
  find "$state/etc-libvirt/storage" "$state/etc-libvirt/qemu" -name '*.xml' -delete 2>/dev/null || true
  find "$state/etc-libvirt" -xtype l -delete 2>/dev/null || true
  sed -E "s/^Cached:( *)[0-9]+ kB/Cached:\\1$REMOTE_CACHED_KB kB/" /proc/meminfo > "$state/meminfo"

  # one host key for every start: root's known_hosts (no_verify=1 still
  # records it) then never sees [127.0.0.1]:PORT change its identity
  if [ ! -f "$hostkey_dir/host_ed25519" ]; then
    mkdir -p "$hostkey_dir" && chmod 0700 "$hostkey_dir"
    ssh-keygen -q -t ed25519 -N '' -f "$hostkey_dir/host_ed25519" -C vbed-remote-host
  fi
  cp "$hostkey_dir/host_ed25519" "$hostkey_dir/host_ed25519.pub" "$state/ssh/"
  ssh-keygen -q -t ed25519 -N '' -f "$state/ssh/id_ed25519" -C vbed-remote-client
  cp "$state/ssh/id_ed25519.pub" "$state/ssh/authorized_keys"
  echo "[127.0.0.1]:$port $(cut -d' ' -f1,2 "$state/ssh/host_ed25519.pub")" > "$state/ssh/known_hosts"
  cat > "$state/ssh/sshd_config" <<CONF
Port $port
ListenAddress 127.0.0.1
HostKey $state/ssh/host_ed25519
AuthorizedKeysFile $state/ssh/authorized_keys
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
PidFile /run/sshd-vbed-remote.pid
CONF

  close_fds
  setsid unshare --mount --propagation private -- "$0" __inner </dev/null >"$state/inner.log" 2>&1 &
  echo $! > "$state/holder.pid"
  for _ in $(seq 1 100); do
    [ -f "$state/ready" ] && break
    alive || { echo "remote-host: the namespace died; see $state/inner.log" >&2; cat "$state/inner.log" >&2; exit 1; }
    sleep 0.2
  done
  # the holder is `sleep infinity` after exec: same pid
  wait_ready
  uri
}

wait_ready() {
  for _ in $(seq 1 60); do
    virsh -c "$(uri)" version >/dev/null 2>&1 && return 0
    sleep 0.5
  done
  echo "remote-host: libvirtd at $(uri) does not answer; see $state/inner.log, $state/sshd.log" >&2
  exit 1
}

stop() {
  if alive; then
    # domains first (they belong to that libvirtd), then the daemons
    for d in $(in_ns virsh -c qemu:///system list --all --name 2>/dev/null); do
      in_ns virsh -c qemu:///system destroy "$d" >/dev/null 2>&1 || true
      in_ns virsh -c qemu:///system undefine "$d" >/dev/null 2>&1 || true
    done
    for pidfile in /run/sshd-vbed-remote.pid /run/libvirtd.pid /run/virtlogd.pid; do
      pid=$(in_ns cat "$pidfile" 2>/dev/null || true)
      [ -n "$pid" ] && kill "$pid" 2>/dev/null || true
    done
    sleep 1
    # whatever else still runs there (a host arm's mariadbd a failed test
    # left): it would outlive the namespace's files
    local ns p
    ns=$(readlink "/proc/$(holder_pid)/ns/mnt")
    for p in /proc/[0-9]*; do
      [ "${p#/proc/}" = "$(holder_pid)" ] && continue
      [ "$(readlink "$p/ns/mnt" 2>/dev/null)" = "$ns" ] && kill -KILL "${p#/proc/}" 2>/dev/null
    done
    kill "$(holder_pid)" 2>/dev/null || true
  fi
  rm -rf "$state"
}

case ${1:-} in
  start) shift; start "$@" ;;
  stop) stop ;;
  uri) uri ;;
  status) if alive; then echo "running: $(uri)"; else echo "stopped"; exit 1; fi ;;
  exec) shift; alive || { echo "remote-host: not running" >&2; exit 1; }; in_ns "$@" ;;
  __inner) inner ;;
  *) echo "usage: $0 start [VBED_BINARY] | stop | uri | status | exec CMD..." >&2; exit 2 ;;
esac
