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

# a host arm runs on one host, through a shell there
cat > "$t/hostarm.ini" <<'INI'
[global]
workload = oltp_read_only

[h]
arm = host
hosts = qemu+tcp://10.255.255.1/system
INI
expect_rc 2 "$VBED" run --dry-run "$t/hostarm.ini"
contains "$err" "hostarm.ini:6: hosts: the host arm [h] needs a shell on its host: a local URI (qemu:///system) or qemu+ssh://, not 'qemu+tcp://10.255.255.1/system'" ||
  fail "host arm on a host without a shell"
sed -i 's|^hosts = .*|hosts = qemu:///system, qemu+ssh://root@10.255.255.1/system|' "$t/hostarm.ini"
expect_rc 2 "$VBED" run --dry-run "$t/hostarm.ini"
contains "$err" "hostarm.ini:6: hosts: the host arm [h] runs on one host: give one URI" || fail "host arm on two hosts"
# -c names its host when hosts does not: no shell there, refused before anything starts
sed -i '/^hosts = /d' "$t/hostarm.ini"
expect_rc 3 "$VBED" -c qemu+tcp://10.255.255.1/system run --dry-run "$t/hostarm.ini"
contains "$err" "host arm [h]: its host 'qemu+tcp://10.255.255.1/system' has no shell transport" ||
  fail "host arm on -c's host without a shell"
contains "$err" "nothing was started" || fail "host arm on -c's host: nothing started"
# an ssh host whose helper does not answer: named, exit 3, nothing started
printf 'hosts = qemu+ssh://root@127.0.0.1:1/system\n' >> "$t/hostarm.ini"
expect_rc 3 "$VBED" run --dry-run "$t/hostarm.ini"
contains "$err" "Cannot reach host 'qemu+ssh://root@127.0.0.1:1/system' (host arm [h])" || fail "unreachable host arm host not named"
contains "$err" "nothing was started" || fail "unreachable host arm host: nothing started"

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
