# doctor.sh: doctor reports one ok/warn/FAIL line per check, with a fix for
# each problem, and fails when libvirt cannot be reached.
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
