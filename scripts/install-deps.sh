#!/usr/bin/env bash
# install-deps.sh: install every Debian package vbed needs to build, test and run.
#
# Used by `make deps`, `make demo` and .ci/run. Idempotent: a second run only
# checks. Services that the packages would start at install time (MariaDB,
# libvirtd) are held back with a temporary policy-rc.d: vbed starts its own
# private mariadbd and scripts/start-daemons.sh starts libvirt.
set -euo pipefail

# clang and libclang-rt-14-dev (libFuzzer's runtime, which clang only
# recommends): make fuzz. groff-base, man-db, bash-completion: the tests of
# the man page (groff -ww, man -l) and of the completion (with
# bash-completion's _init_completion and _filedir). ccache: a fresh clone
# compiles only what changed since an earlier build on this machine (Makefile)
build_pkgs=(
  gcc make pkg-config ccache
  libvirt-dev libinih-dev libjson-c-dev libxml2-dev
  libguestfs-dev libmariadb-dev libcmocka-dev
  libarchive-dev libgsl-dev libssl-dev zlib1g-dev
  clang libclang-rt-14-dev
  groff-base man-db bash-completion
)
# tini: libvirtd's reaper where PID 1 is not systemd (scripts/run-libvirtd.sh)
# openssh-server: the second "host" of the multi-host tests (tests/remote-host.sh)
# python3 and time (GNU time, /usr/bin/time): the tests' arithmetic (t
# quantiles, recomputed figures) and host-arm-trust's peak RSS -- both
# Priority: optional in Debian, so a fresh machine may lack them, and under
# CI a test that cannot run fails
run_pkgs=(
  libvirt-daemon-system libvirt-daemon-driver-qemu libvirt-clients
  qemu-system-x86 qemu-utils
  debootstrap libguestfs-tools linux-image-amd64
  mariadb-server mariadb-client mariadb-plugin-provider-lz4 sysbench
  e2fsprogs xfsprogs btrfs-progs util-linux procps cpio zstd
  fio tar
  gnuplot-nox chromium netpbm jq libxml2-utils cgroupfs-mount
  openssh-server openssh-client
  python3 time tini
)

missing=()
for p in "${build_pkgs[@]}" "${run_pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#build_pkgs[@]}+${#run_pkgs[@]} packages present"
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "install-deps: missing packages: ${missing[*]}" >&2
  echo "install-deps: run as root (or: sudo make deps)" >&2
  exit 1
fi

echo "install-deps: installing ${missing[*]}"
policy=/usr/sbin/policy-rc.d
made_policy=0
if [ ! -e "$policy" ]; then
  printf '#!/bin/sh\nexit 101\n' > "$policy"
  chmod 755 "$policy"
  made_policy=1
fi
trap '[ $made_policy -eq 1 ] && rm -f "$policy"' EXIT

export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends "${missing[@]}"
echo "install-deps: done"
