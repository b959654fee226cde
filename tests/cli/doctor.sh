# doctor.sh: doctor reports one ok/warn/FAIL line per check, with a fix for
# each problem, and fails when libvirt cannot be reached, or when the
# cgroups a host arm needs are missing or do not confine a process.
. "$VBED_SRC/tests/lib.sh"

# the test driver: reachable, but it offers neither kvm nor qemu domains
expect_rc 1 "$VBED" -c test:///default doctor
contains "$out" "ok    libvirt      connected to test:///default" || fail "libvirt line"
contains "$out" "FAIL  kvm" || fail "kvm line"
contains "$out" "fix: install qemu-system-x86" || fail "no fix given"
contains "$out" "page cache" || fail "page cache line"
contains "$out" "cgroups" || fail "cgroups line"

# an unreachable URI
expect_rc 1 "$VBED" -c qemu+unix:///system?socket=/nonexistent/sock doctor
contains "$out" "FAIL  libvirt" || fail "unreachable libvirt not reported"
contains "$out" "scripts/start-daemons.sh" || fail "no fix for unreachable libvirt"
expect_rc 2 "$VBED" doctor extra-arg

# cgroups: doctor does what a host arm does (a cgroup with a cpuset and a
# memory limit, a process in it, its membership checked) and says FAIL when a
# host arm could not run
expect_rc 1 "$VBED" -c test:///default doctor
line=$(echo "$out" | grep "cgroups")
[ "$(id -u)" -eq 0 ] && { [ -f /sys/fs/cgroup/memory/memory.limit_in_bytes ] ||
     grep -qw cpuset /sys/fs/cgroup/cgroup.controllers 2>/dev/null; } ||
  skip "needs root and the memory and cpuset cgroup controllers (scripts/start-daemons.sh mounts them): doctor's confinement check cannot be tried"
if true; then
  contains "$line" "ok    cgroups      cgroup v" || fail "root with cgroups, yet: $line"
  contains "$line" "a test process was confined to CPU 0" || fail "confinement not checked: $line"
  ls /sys/fs/cgroup/memory /sys/fs/cgroup 2>/dev/null | grep -q vbed-doctor && fail "doctor left its cgroup"
else
  contains "$line" "FAIL  cgroups" || fail "no cgroups here, yet: $line"
fi
# no controllers at all
VBED_CGROUP_ROOT=$VBED_TEST_TMP/nocg expect_rc 1 "$VBED" -c test:///default doctor
contains "$out" "FAIL  cgroups      no cgroup with memory and cpuset controllers: a host arm with host_match = guest cannot run here" || fail "missing controllers not a FAIL"
contains "$out" "fix: run vbed as root on a host with the memory and cpuset cgroup" || fail "no fix for cgroups"
# files that look like cgroup v1 but confine nothing (a plain directory):
# the membership check after start must catch it
[ "$(nproc)" -gt 1 ] || skip "one CPU: an unconfined process cannot be told from a confined one"
if true; then
  fake=$VBED_TEST_TMP/fakecg
  mkdir -p "$fake/memory" "$fake/cpuset"
  echo 0 >"$fake/memory/memory.limit_in_bytes"; echo 0 >"$fake/cpuset/cpuset.cpus"; echo 0 >"$fake/cpuset/cpuset.mems"
  VBED_CGROUP_ROOT=$fake expect_rc 1 "$VBED" -c test:///default doctor
  contains "$out" "FAIL  cgroups      cgroup v1: a test process was not confined (process" || fail "unconfined process not a FAIL: $out"
fi
