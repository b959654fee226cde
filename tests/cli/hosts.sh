# hosts.sh: the hosts key: a placement, not an axis; --dry-run prints which
# guest goes to which host and refuses, before anything starts, a malformed
# URI (file:line), a host arm on a remote host, and a host that cannot be
# reached (named). libvirt's test driver serves as two hosts here.
. "$VBED_SRC/tests/lib.sh"
export LIBVIRT_DEFAULT_URI=test:///default
t=$VBED_TEST_TMP
cat > "$t/node.xml" <<'XML'
<node>
  <cpu><mhz>2000</mhz><model>i686</model><nodes>1</nodes><sockets>1</sockets><cores>2</cores><threads>1</threads><active>2</active></cpu>
  <memory>4194304</memory>
</node>
XML
second="test://$t/node.xml"

cat > "$t/two.ini" <<INI
[global]
workload = oltp_read_only
hosts = test:///default, $second
disk_cache = none, writeback

[g]
arm = guest
guests = 3
INI
expect_rc 0 "$VBED" run --dry-run "$t/two.ini"
# two variants from disk_cache only: hosts is no axis
contains "$out" "2 variants x 1 arm, 2 distinct runs" || fail "hosts became an axis"
contains "$out" "guest 1 on test:///default" || fail "guest 1 placement"
contains "$out" "guest 2 on $second" || fail "guest 2 placement"
contains "$out" "guest 3 on test:///default" || fail "guest 3 placement (round-robin)"

# an arm overrides [global]'s hosts
cat > "$t/arm.ini" <<INI
[global]
workload = oltp_read_only
hosts = test:///default

[a]
arm = guest
guests = 2
hosts = $second
INI
expect_rc 0 "$VBED" run --dry-run "$t/arm.ini"
contains "$out" "guest 1 on $second" || fail "arm hosts"
contains "$out" "guest 2 on $second" || fail "arm hosts, guest 2"

# pool and pool_dir per arm: the one-host form of an HDD/SSD comparison
cat > "$t/pools.ini" <<'INI'
[global]
workload = oltp_read_only

[hdd]
arm = guest

[ssd]
arm = guest
pool = ssd
pool_dir = /var/lib/vbed/ssd
INI
expect_rc 0 "$VBED" run --dry-run --xml-dir "$t/xml" "$t/pools.ini"
contains "$out" "guest 1 on test:///default, pool vbed" || fail "hdd arm's pool"
contains "$out" "guest 1 on test:///default, pool ssd" || fail "ssd arm's pool"
grep -q "/var/lib/vbed/ssd/vbed-dryrun-002-ssd-1-data.qcow2" "$t/xml/vbed-dryrun-002-ssd-1.xml" ||
  fail "the ssd arm's disks are not in its pool_dir"

# a malformed URI: file and line, exit 2
cat > "$t/bad.ini" <<'INI'
[global]
workload = oltp_read_only

[a]
arm = guest
hosts = test:///default, qemu:/system
INI
expect_rc 2 "$VBED" run --dry-run "$t/bad.ini"
contains "$err" "$t/bad.ini:6: hosts: 'qemu:/system' is not a libvirt URI" || fail "malformed URI message"

# the same URI twice
sed -i 's|qemu:/system|test:///default|' "$t/bad.ini"
expect_rc 2 "$VBED" run --dry-run "$t/bad.ini"
contains "$err" "bad.ini:6: hosts: 'test:///default' appears twice in the list" || fail "duplicate host"

# a host arm runs on this machine only
cat > "$t/hostarm.ini" <<'INI'
[global]
workload = oltp_read_only

[h]
arm = host
hosts = qemu+ssh://root@10.255.255.1/system
INI
expect_rc 2 "$VBED" run --dry-run "$t/hostarm.ini"
contains "$err" "hostarm.ini:6: hosts: the host arm [h] runs on this machine only" || fail "remote host arm"

# a host that does not answer: named, exit 3, nothing started
cat > "$t/gone.ini" <<'INI'
[global]
workload = oltp_read_only

[a]
arm = guest
guests = 2
hosts = test:///default, qemu+tcp://127.0.0.1:1/system
INI
expect_rc 3 "$VBED" run --dry-run "$t/gone.ini"
contains "$err" "Cannot reach host 'qemu+tcp://127.0.0.1:1/system' (arm [a])" || fail "unreachable host not named"
contains "$err" "nothing was started" || fail "unreachable host: nothing started"
exit 0
