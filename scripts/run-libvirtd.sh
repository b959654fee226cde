#!/usr/bin/env bash
# run-libvirtd.sh: start libvirtd in the background where PID 1 is not
# systemd: in the foreground under tini -s (a subreaper), which reaps the
# orphans libvirtd leaves at once, as systemd does. QEMU leaves libvirtd by
# a double fork, and libvirt's virDomainDestroy polls until the process is
# gone: this machine's PID 1 reaps an orphan 1.0-1.3 s after it dies, and
# every destroy took 1.4-2.2 s after QEMU had exited in 25 ms (0.25 s under
# tini). libvirtd writes /run/libvirtd.pid in the foreground too, and tini
# ends with it. Without tini (make deps installs it), libvirtd daemonizes
# itself. Used by scripts/start-daemons.sh and by tests/remote-host.sh for
# its second host's libvirtd; neither waits here for it to answer.
set -euo pipefail
if command -v tini >/dev/null; then
  mkdir -p /var/log/libvirt
  setsid tini -s -- libvirtd </dev/null >>/var/log/libvirt/libvirtd-stderr.log 2>&1 &
else
  libvirtd -d
fi
