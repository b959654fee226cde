# raw-io.sh: `vbed report` on a results directory recorded from a real
# host-arm run here of seq_write, seq_read and tar_extract (64M; raw logs
# left out): the headline is MB/s (mbps_arm), not TPS, with the rule that
# defines it; every format equals its golden file (VBED_UPDATE_GOLDEN=1
# rewrites them).
. "$VBED_SRC/tests/lib.sh"

name=host-io-recorded
report_goldens $name
expect_rc 0 "$VBED" report --no-html "$res"
contains "$out" "MB/s is the arm's throughput per repeat for a raw I/O workload" || fail "no MB/s rule"
case $out in *"TPS mean"*) fail "a raw I/O report speaks of TPS" ;; esac
for v in 1 2 3; do
  contains "$out" "Variant $v: workload=" || fail "variant $v missing"
done
echo "$out" | grep -Eq '^  host +host +- +1 +[0-9]+\.[0-9]+ ' || fail "no MB/s row for the host arm"
