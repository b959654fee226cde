# stall-watchdog.sh: a guest whose disk stops completing requests is caught
# within timeout_stall (15 s here), not after timeout_prepare's hour.
#
# The stall is made as QEMU makes it: the data disk throttled to 1 byte/s
# (virsh blkdeviotune), so that the guest's requests stay in flight and none
# completes on the host -- the shape of the lost completion seen in CI
# (QEMU 7.2, TCG, restored guest, hot-plugged disk). Two guest arms, in this
# order, restored guests:
#   prep  (stall_retry = yes): the disk throttled while sysbench prepare
#         loads the tables; the watch names the disk within timeout_stall
#         (+ its looks), the run is repeated once cold-booted and completes;
#         meta.json says so, the stalled attempt's logs are kept beside.
#   meas  (stall_retry = no): the disk throttled 5 s into a 120 s measure
#         phase; the run fails, naming the stalled disk, long before the
#         phase would have ended.
# vbed exits 1 (one run failed) and nothing of either run is left.
# vbed-test: paired 205 (tests/run-tests.sh: it may run beside another)
. "$VBED_SRC/tests/lib.sh"
need_libvirt
need_prog jq

sc=$VBED_TEST_TMP/stall.ini
cat > "$sc" <<'EOF'
[global]
workload      = oltp_read_write
tables        = 1
table_size    = 20000
threads       = 1
warmup        = 0s
duration      = 10s
compression   = none
buffer_pool   = 8M
memory        = 768M
vcpus         = 1
disk_size     = 256M
drop_caches   = no
performance_schema = no
post_probes   = no
prepare       = load
order         = fixed
start         = restore
timeout_stall = 15s
timeout_prepare = 10m

[prep]
arm         = guest
disk_cache  = none
disk_format = qcow2
flush_method = fsync
stall_retry = yes

[meas]
arm         = guest
disk_cache  = writeback
disk_format = raw
flush_method = fsync
duration    = 120s
stall_retry = no
EOF

uri=qemu:///system
# the data disk's target of domain DOM (its source is the -data volume)
data_target() { virsh -c $uri domblklist "$1" 2>/dev/null | awk '$2 ~ /-data\./ { print $1 }'; }
throttle() { # DOM: the data disk at 1 byte/s, within 10 s of its plug-in
  local t i
  for i in $(seq 1 20); do
    t=$(data_target "$1")
    [ -n "$t" ] && break
    sleep 0.5
  done
  [ -n "$t" ] || fail "$1 has no data disk to throttle"
  virsh -c $uri blkdeviotune "$1" "$t" --total-bytes-sec 1 --live >/dev/null || fail "cannot throttle $1's $t"
  echo "throttled $1's $t at $SECONDS s"
}

log=$VBED_TEST_TMP/log
"$VBED" run --id e2estall -o "$VBED_TEST_TMP/res" "$sc" >"$log" 2>&1 &
pid=$!
wait_for_log "$log" $pid 'vbed-e2estall-001-prep-1: loads its tables' 1 400
throttle vbed-e2estall-001-prep-1
t1=$SECONDS
wait_for_log "$log" $pid 'vbed-e2estall-001-prep-1: its disk has stalled' 1 120
d1=$((SECONDS - t1))
wait_for_log "$log" $pid "run e2estall-002: arm meas" 1 600
wait_for_log "$log" $pid 'measure: 120s in 1 target' 1 400
sleep 5
throttle vbed-e2estall-002-meas-1
t2=$SECONDS
wait $pid
rc=$?
d2=$((SECONDS - t2))
cat "$log"
echo "prepare: stall named $d1 s after the throttle; measure: vbed ended $d2 s after it"
[ $rc -eq 1 ] || fail "exit code $rc, expected 1 (the measure arm's run failed)"
# 15 s of stall, found by looks 5 s apart and a guest asked every 10 s: under 45 s
[ $d1 -le 45 ] || fail "the stall in prepare was named only $d1 s after the throttle"
[ $d2 -le 75 ] || fail "the stall in the measure phase ended the run only $d2 s after the throttle"
grep -Eq "vbed-e2estall-001-prep-1: its disk has stalled: the guest's vd[a-z] has held [0-9]+ requests? for [0-9]+ s without completing any, and its disk vd[a-z] completed none on the host for [0-9]+ s \(timeout_stall\)" "$log" ||
  fail "the prepare stall's evidence does not name the guest's disk and the host's"
grep -q "run e2estall-001: .* the run is repeated once with its guests cold-booted (stall_retry)" "$log" ||
  fail "the stalled run was not repeated cold"
grep -q "vbed-e2estall-002-meas-1: its disk has stalled" "$log" || fail "the measure phase's stall was not named"
assert_nothing_left e2estall

r=$(latest_results "$VBED_TEST_TMP/res")
jq -e '.runs[0].status == "ok" and .runs[0].stall.repeated == "cold" and
       (.runs[0].stall.evidence | test("its disk has stalled")) and
       (.runs[0].guest_start[0].start == "cold")' "$r/meta.json" >/dev/null ||
  fail "meta.json does not record the prep run's stall and its cold repeat"
jq -e '.runs[1].status == "failed" and (.runs[1].reason | test("its disk has stalled")) and (.runs[1] | has("stall") | not)' \
  "$r/meta.json" >/dev/null || fail "meta.json does not record the meas run as failed by the stall (and not repeated)"
[ -d "$r/runs/001-prep/guest-1-stalled" ] && [ -s "$r/runs/001-prep/guest-1-stalled/console.log" ] ||
  fail "the stalled attempt's logs were not kept beside"
# the repeat's samples alone: one tps_arm for the prep run, and one boot_to_ready_s, cold
[ "$(jq -r 'select(.metric == "tps_arm" and .labels.arm == "prep") | .value' "$r/samples.jsonl" | wc -l)" -eq 1 ] ||
  fail "the prep run has not exactly one TPS"
[ "$(jq -r 'select(.metric == "boot_to_ready_s" and .labels.arm == "prep") | .labels.start' "$r/samples.jsonl")" = cold ] ||
  fail "the prep run's samples are not the cold repeat's alone"
