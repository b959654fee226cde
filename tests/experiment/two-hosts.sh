# two-hosts.sh: a scenario over two hypervisor hosts -- this machine's
# libvirtd (qemu:///system) and a second "host" (tests/remote-host.sh: its
# own libvirtd, sshd and filesystem view, reached only as qemu+ssh://) --
# with a guest arm on each and a host arm on the second. Checks: the image
# reached the second host through libvirt; its guest was restored from the
# ready guest this machine saved, uploaded there; guests ran on both; every sample
# names its host; the remote host's page-cache residency and /proc/meminfo
# figures came from the remote namespace (its /proc/meminfo says Cached:
# 777777 kB, and its data disks exist only there); the host arm's mariadbd
# ran in the second host's namespace (its directory appeared there and never
# here), measured, and its raw logs came back; then SIGINT in the measure
# phase of a guest arm spread over both hosts, and in the measure phase of
# the remote host arm, leaves nothing on either host; doctor and clean of
# the second host through its URI (clean stops a dead session's host arm
# there).
# vbed-test: paired 313 (tests/run-tests.sh: it may run beside another)
. "$VBED_SRC/tests/lib.sh"
need_libvirt
need_prog jq
need_prog unshare
[ -x /usr/sbin/sshd ] || skip "needs sshd (make deps: openssh-server)"

export VBED_REMOTE_STATE=$VBED_TEST_TMP/remote-host
export VBED_REMOTE_PORT=${VBED_REMOTE_PORT:-2299}
# a failing check leaves a vbed running: interrupt it (it cleans up on
# both hosts) before the second host goes
vbed_pid=
stop_all() {
  if [ -n "$vbed_pid" ] && kill -0 "$vbed_pid" 2>/dev/null; then
    kill -INT "$vbed_pid"
    wait "$vbed_pid" 2>/dev/null
  fi
  bash "$VBED_SRC/tests/remote-host.sh" stop
}
trap stop_all EXIT
uri=$(bash "$VBED_SRC/tests/remote-host.sh" start "$VBED") || fail "cannot start the second host"
label=${uri%%\?*}
remote() { bash "$VBED_SRC/tests/remote-host.sh" exec "$@"; }

# the second host shares nothing vbed keeps state in
[ -z "$(remote ls /var/lib/vbed)" ] || fail "the second host's /var/lib/vbed is not empty"
[ -z "$(remote ls /var/cache/vbed)" ] || fail "the second host sees this machine's image cache"
virsh -c "$uri" pool-list --all --name | grep -qx vbed && fail "the second host sees this machine's pool"

t=$VBED_TEST_TMP
cat > "$t/two.ini" <<INI
[global]
workload    = oltp_read_only
memory      = 768M
buffer_pool = 64M
disk_size   = 256M
tables      = 1
table_size  = 1000
duration    = 10s
warmup      = 0s
order       = fixed
post_probes = no
; the KVM probe is tested elsewhere; here it would boot once more per run
virt_type   = qemu

[here]
arm = guest
hosts = qemu:///system

[there]
arm = guest
hosts = $uri

[there_bare]
arm = host
hosts = $uri
INI

expect_rc 0 "$VBED" run --dry-run "$t/two.ini"
contains "$out" "guest 1 on qemu:///system" || fail "dry run: placement of [here]"
contains "$out" "guest 1 on $label" || fail "dry run: placement of [there]"
contains "$out" "host arm there_bare on $label" || fail "dry run: placement of [there_bare]"

# where the host arm's directory appears while the run goes on: the second
# host's /var/lib/vbed/host, never this machine's
watch_arms() {
  while kill -0 "$1" 2>/dev/null; do
    remote ls /var/lib/vbed/host 2>/dev/null | grep -- "-there_bare" >>"$t/arms-there" || true
    ls /var/lib/vbed/host 2>/dev/null | grep -- "vbed-e2e2h-.*-there_bare" >>"$t/arms-here" || true
    sleep 0.5
  done
}
: >"$t/arms-there"
: >"$t/arms-here"
"$VBED" run --id e2e2h -o "$t/res" "$t/two.ini" >"$t/log" 2>&1 &
pid=$!
vbed_pid=$pid
watch_arms $pid &
watcher=$!
wait $pid
rc=$?
wait $watcher
cat "$t/log"
[ $rc -eq 0 ] || fail "the two-host run failed (exit $rc)"
r=$(latest_results "$t/res")
s=$r/samples.jsonl

# the image went to the second host's pool through libvirt
remote sh -c 'ls /var/lib/vbed/pool' | grep -q '^vbed-image-.*\.qcow2$' || fail "no image on the second host"
# once per pool and content hash: a second upload finds it there
expect_rc 0 "$VBED" image push qemu:///system "$uri"
contains "$out" "$label pool vbed: already there" || fail "the image was uploaded twice to the second host"
# another build of the same id there (a rebuild makes other bytes: its
# guests, and a guest saved over this machine's build, would read a root
# they do not know -- a fresh machine's CI failed so, "ext4 ... checksum
# invalid" in the restored guest): never taken for this one; never
# replaced while a guest's root overlay is backed by it
img_id=$(basename "$("$VBED" image path)")
marker=/var/lib/vbed/pool/vbed-image-$img_id.complete
build=$(remote cat "$marker" | tr -d '\0')
[ -n "$build" ] || fail "the second host's image marker names no build"
remote sh -c "printf another-build > $marker"
remote sh -c ": > /var/lib/vbed/pool/vbed-e2e2hx-001-x-1-root.qcow2"
expect_rc 3 "$VBED" image push qemu:///system "$uri"
contains "$err" "holds another build of image $img_id" || fail "another build in the pool was not seen"
contains "$err" "1 guest root overlay backed by it: it cannot be replaced" ||
  fail "another build was replaced under a guest's root overlay: $err"
remote rm /var/lib/vbed/pool/vbed-e2e2hx-001-x-1-root.qcow2
expect_rc 0 "$VBED" image push qemu:///system "$uri"
contains "$out" "$label pool vbed: uploaded in" || fail "another build in the pool was taken for this one: $out"
[ "$(remote cat "$marker" | tr -d '\0')" = "$build" ] || fail "the marker does not name this machine's build again"
jq -e --arg l "$label" '[.hosts[] | select(.host == $l)] | length == 1' "$r/meta.json" >/dev/null ||
  fail "meta.json does not list the second host"
jq -e --arg l "$label" '[.runs[] | select(.arm == "there") | .guest_hosts[0] == $l] | all' "$r/meta.json" >/dev/null ||
  fail "meta.json: the run of [there] does not name its host"

# the second host's guest was restored from the state this machine saved
# (the same QEMU and libvirt: the same key), uploaded there and gone again
jq -e '[.runs[] | select(.arm == "there") | .guest_start[] | .start == "restored" and .restore_s > 0] | length == 1 and all' \
  "$r/meta.json" >/dev/null || fail "the second host's guest was not restored: $(jq -c '[.runs[] | {arm, guest_start}]' "$r/meta.json")"
! remote sh -c 'ls /var/lib/vbed/pool' | grep -q 'state\.save$' || fail "a save image was left in the second host's pool"
# guests ran on both hosts, and every sample names its host
for arm_host in "here qemu:///system" "there $label"; do
  set -- $arm_host
  n=$(jq -r --arg a "$1" --arg h "$2" 'select(.metric == "tps_arm" and .labels.arm == $a and .labels.host == $h) | .value' "$s" | wc -l)
  [ "$n" -eq 1 ] || fail "arm $1: no tps_arm on $2"
  # (jq 1.6 -e looks at the last line only: slurp)
  jq -se --arg a "$1" --arg h "$2" 'map(select(.metric == "boot_to_ready_s" and .labels.arm == $a and .labels.host == $h)) | length == 1' "$s" >/dev/null ||
    fail "arm $1: no guest booted on $2"
done
# the host arm ran on the second host: its directory was there, never here;
# it measured, and its raw logs came back to this machine
grep -q -- "^vbed-e2e2h-.*-there_bare$" "$t/arms-there" || fail "the host arm's directory never appeared on the second host"
[ ! -s "$t/arms-here" ] || fail "the remote host arm made its directory on this machine: $(sort -u "$t/arms-here")"
n=$(jq -r --arg h "$label" 'select(.metric == "tps_arm" and .labels.arm == "there_bare" and .labels.host == $h) | .value' "$s")
awk -v v="$n" 'BEGIN { exit !(v + 0 > 0) }' || fail "the remote host arm has no TPS on $label: '$n'"
for m in server_cpu_s hostarm_write_bytes innodb_data_fsyncs; do
  jq -se --arg h "$label" --arg m "$m" 'map(select(.metric == $m and .labels.arm == "there_bare" and .labels.host == $h)) | length >= 1' "$s" >/dev/null ||
    fail "the remote host arm recorded no $m"
done
bare=$(ls -d "$r"/runs/*-there_bare/host)
grep -q "transactions:" "$bare/sysbench-measure.out" || fail "the remote host arm's sysbench log did not come back"
grep -q "mariadbd" "$bare/mysqld.err" 2>/dev/null || grep -q "MariaDB" "$bare/mysqld.err" || fail "the remote host arm's error log did not come back"
# the noise of each run is its own host's: /proc/stat read there
for arm_host in "here qemu:///system" "there $label" "there_bare $label"; do
  set -- $arm_host
  for m in host_steal_pct host_other_cpu_pct; do
    jq -se --arg a "$1" --arg h "$2" --arg m "$m" 'map(select(.metric == $m and .labels.arm == $a and .labels.host == $h and (.value | type) == "number")) | length == 1' "$s" >/dev/null ||
      fail "arm $1: no $m of its host $2"
  done
done
# the machine's speed (hostside/speed.h) is this machine's alone: measured
# in the run with a guest here, in none of those wholly on the second host
n=$(jq -r 'select(.metric == "host_speed_unit_ms" and .labels.arm == "here" and .value > 0) | .value' "$s" | wc -l)
[ "$n" -eq 1 ] || fail "the run here has $n figures of this machine's speed, not 1"
n=$(jq -r 'select(.metric == "host_speed_unit_ms" and .labels.arm != "here") | .value' "$s" | wc -l)
[ "$n" -eq 0 ] || fail "a run on the second host recorded this machine's speed ($n figures)"
n=$(jq -r 'select(.metric == "host_memory_unit_ms") | .labels.arm' "$s" | sort | uniq -c | awk '{ print $2 ":" $1 }' | tr '\n' ' ')
[ "$n" = "here:1 " ] || fail "the memory gauge is not this machine's alone, once: $n"
# the report compares a guest arm with the host arm of its own host, and
# says so when none ran there
expect_rc 0 "$VBED" report "$r"
contains "$out" "there/there_bare" || fail "report: [there] is not compared with the host arm of its host"
contains "$out" "arm here ran on qemu:///system; no host arm ran there, so it is compared with host arm there_bare on $label" ||
  fail "report: the comparison of [here] with another host's host arm is not flagged"
missing=$(jq -c 'select(.labels.host == null or .labels.host == "")' "$s" | head -n 3)
[ -z "$missing" ] || fail "samples without a host: $missing"

# the second host's figures are the second host's: its /proc/meminfo ...
marked=$((777777 * 1024))
n=$(jq -r --arg h "$label" 'select(.metric == "host_cached_bytes" and .labels.host == $h) | .value' "$s" | sort -u)
[ "$n" = "$marked" ] || fail "host_cached_bytes of the second host is '$n', not its namespace's $marked"
n=$(jq -r 'select(.metric == "host_cached_bytes" and .labels.host == "qemu:///system") | .value' "$s" | grep -cx "$marked")
[ "$n" -eq 0 ] || fail "this machine's host_cached_bytes carries the second host's mark"
# ... and the residency of a data disk that exists only there
n=$(jq -r --arg h "$label" 'select(.metric == "host_cache_data_bytes" and .labels.arm == "there" and .labels.host == $h) | .value' "$s" | wc -l)
[ "$n" -eq 2 ] || fail "expected 2 residency samples (before, after) of the second host's guest, found $n"

echo "figures: image upload to the second host $(jq -r --arg l "$label" '.hosts[] | select(.host == $l) | .image_upload_s' "$r/meta.json") s;" \
  "boot-to-ready here $(jq -r 'select(.metric == "boot_to_ready_s" and .labels.arm == "here") | .value' "$s") s," \
  "there $(jq -r 'select(.metric == "boot_to_ready_s" and .labels.arm == "there") | .value' "$s") s;" \
  "TPS here $(jq -r 'select(.metric == "tps_arm" and .labels.arm == "here") | .value' "$s")," \
  "there $(jq -r 'select(.metric == "tps_arm" and .labels.arm == "there") | .value' "$s")," \
  "host arm there $(jq -r 'select(.metric == "tps_arm" and .labels.arm == "there_bare") | .value' "$s")"

# SIGINT while a guest arm spread over both hosts measures: nothing left on either.
# Its measure phase is long (60 s; SIGINT ends it) so that both guests'
# sysbench can be seen, one after the other through their agents: with 10 s
# the second guest's had ended before its turn on a busy machine (CI, 8.5 %
# steal)
cat > "$t/spread.ini" <<INI
[global]
workload    = oltp_read_only
memory      = 768M
buffer_pool = 64M
disk_size   = 256M
tables      = 1
table_size  = 1000
duration    = 60s
warmup      = 0s
post_probes = no
virt_type   = qemu

[both]
arm = guest
guests = 2
hosts = qemu:///system, $uri
INI
"$VBED" run --id e2e2i -o "$t/res2" "$t/spread.ini" >"$t/log2" 2>&1 &
pid=$!
vbed_pid=$pid
# the measure phase runs in both guests at once: interrupt it there, when
# host-side figures are being read on both hosts
wait_for_log "$t/log2" $pid 'measure: ' 1 300
virsh -c qemu:///system list --name | grep -q "^vbed-e2e2i-.*-both-1$" || fail "guest 1 is not on this machine"
virsh -c "$uri" list --name | grep -q "^vbed-e2e2i-.*-both-2$" || fail "guest 2 is not on the second host"
wait_guest_proc "$(virsh -c qemu:///system list --name | grep "^vbed-e2e2i-.*-both-1$")" sysbench 30
wait_guest_proc "$(virsh -c "$uri" list --name | grep "^vbed-e2e2i-.*-both-2$")" sysbench 30 "$uri"
kill -INT $pid
wait $pid
rc=$?
cat "$t/log2"
[ $rc -eq 130 ] || fail "exit code $rc after SIGINT, expected 130"
assert_nothing_left e2e2i
left=$(virsh -c "$uri" list --all --name | grep -- "vbed-e2e2i-" || true)
[ -z "$left" ] || fail "domains left on the second host: $left"
left=$(remote ls /var/lib/vbed/pool | grep -- "vbed-e2e2i-" || true)
[ -z "$left" ] || fail "volumes left on the second host: $left"

# SIGINT while the remote host arm measures: its mariadbd, its sysbench,
# its cgroup and its directory go on the second host
cat > "$t/bare.ini" <<INI
[global]
workload    = oltp_read_only
buffer_pool = 64M
memory      = 768M
tables      = 1
table_size  = 1000
duration    = 5m
warmup      = 0s
post_probes = no

[bare]
arm = host
hosts = $uri
INI
"$VBED" run --id e2e2j -o "$t/res3" "$t/bare.ini" >"$t/log3" 2>&1 &
pid=$!
vbed_pid=$pid
wait_for_log "$t/log3" $pid 'measure: ' 1 300
# the measure phase reads every layer's counters first: wait for sysbench
for i in $(seq 1 60); do
  pgrep -f "^sysbench .*vbed-e2e2j-" >/dev/null && break
  sleep 0.5
done
pgrep -f "^sysbench .*vbed-e2e2j-" >/dev/null || fail "no sysbench of the remote host arm runs"
# ... and its output streams into the raw log here
for _ in $(seq 1 100); do
  [ -n "$(find "$t/res3" -name sysbench-measure.out -size +0 2>/dev/null)" ] && break
  sleep 0.2
done
[ -n "$(find "$t/res3" -name sysbench-measure.out -size +0)" ] || fail "the remote sysbench's output did not reach the raw log"
kill -INT $pid
wait $pid
rc=$?
cat "$t/log3"
[ $rc -eq 130 ] || fail "exit code $rc after SIGINT of the remote host arm, expected 130"
assert_nothing_left e2e2j
left=$(remote ls /var/lib/vbed/host | grep -- "vbed-e2e2j-" || true)
[ -z "$left" ] || fail "host arm directories left on the second host: $left"
if pgrep -af "(mariadbd|sysbench).*vbed-e2e2j-" >/dev/null; then fail "processes left: $(pgrep -af "(mariadbd|sysbench).*vbed-e2e2j-")"; fi
left=$(ls /sys/fs/cgroup /sys/fs/cgroup/memory /sys/fs/cgroup/cpuset 2>/dev/null | grep -- "vbed-e2e2j-" || true)
[ -z "$left" ] || fail "cgroups left: $left"

# doctor and clean of the second host, through its URI
expect_rc 0 "$VBED" -c "$uri" doctor
contains "$out" "answers on $label over ssh" || fail "doctor: the helper on the second host"
contains "$out" "can drop $label's caches" || fail "doctor: drop_caches on the second host"
contains "$out" "pool 'vbed' on $label:" || fail "doctor: the second host's pool"
expect_rc 0 "$VBED" -c "$uri" clean
contains "$out" "clean: removed 0, 0 failed" || fail "clean of the second host found leftovers"

# a host arm a killed vbed left on the second host: clean -c stops and removes it
"$VBED" run --id e2e2k -o "$t/res4" "$t/bare.ini" >"$t/log4" 2>&1 &
pid=$!
vbed_pid=$pid
wait_for_log "$t/log4" $pid 'measure: ' 1 300
kill -KILL $pid
wait $pid 2>/dev/null || true
remote ls /var/lib/vbed/host | grep -q -- "vbed-e2e2k-" || fail "the killed run left no host arm to clean (test broken)"
expect_rc 0 "$VBED" -c "$uri" clean
contains "$out" "stopped and removed host arm /var/lib/vbed/host/vbed-e2e2k-" || fail "clean -c did not remove the remote host arm"
left=$(remote ls /var/lib/vbed/host | grep -- "vbed-e2e2k-" || true)
[ -z "$left" ] || fail "clean -c left the remote host arm: $left"
if pgrep -af "(mariadbd|sysbench).*vbed-e2e2k-" >/dev/null; then fail "clean -c left processes: $(pgrep -af "(mariadbd|sysbench).*vbed-e2e2k-")"; fi
exit 0
