# disk-layouts.sh: data-disk layouts and raw I/O workloads for real, one
# guest per layout family (tests/data/scenarios/disk-layout-families.ini:
# md RAID 5 + ext4 with seq_write, an LVM stripe + xfs with seq_read, btrfs
# RAID 10 with tar_extract): every run yields MB/s > 0 for its own workload,
# a redundant md array records how long its initial resync took
# (md_resync_s > 0) and no other layout records one, fio's read or write
# side is the one the workload asked for with its latency percentiles,
# tar's archive size is the image's, the report's headline is MB/s, and
# nothing is left. Prints the MB/s table. The rest of the layout matrix is
# in tests/cli/setup-layouts.sh and test_domain.c; every layout x workload
# for real: VBED_DISK_LAYOUTS_SCENARIO=tests/data/scenarios/disk-layouts-tiny.ini
# (16 guest boots, 11-30 min under TCG).
# vbed-test: paired 91 (its checks are signs and counts: a neighbour cannot change them)
. "$VBED_SRC/tests/lib.sh"
need_libvirt
need_prog jq

scn=${VBED_DISK_LAYOUTS_SCENARIO:-tests/data/scenarios/disk-layout-families.ini}
res=$VBED_TEST_TMP/res
start=$SECONDS
expect_rc 0 "$VBED" run --id e2edl -o "$res" "$scn"
echo "wall time: $((SECONDS - start)) s"
assert_nothing_left e2edl
r=$(latest_results "$res")
s=$r/samples.jsonl
jq -c . "$s" > /dev/null || fail "a line of samples.jsonl does not parse"
jq -e '.status == "complete"' "$r/meta.json" >/dev/null || fail "meta.json status"

num_pos() { awk -v v="$1" 'BEGIN { exit !(v ~ /^[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$/ && v > 0) }'; }
one() { # RUN METRIC: the one value of METRIC in run RUN ("" if none; fails if several)
  local v; v=$(jq -r --arg run "$1" --arg m "$2" 'select(.metric == $m and .labels.run == $run) | .value' "$s")
  [ "$(echo "$v" | grep -c .)" -le 1 ] || fail "run $1: several $2: $v"
  echo "$v"
}
runs=$(jq -r '.runs[] | [.run, .arm, .config.workload, .config.layout, .dir] | @tsv' "$r/meta.json")
[ -n "$runs" ] || fail "no runs in meta.json"
seen_wl=""
printf '%-14s %-12s %-12s %10s %12s\n' arm layout workload MB/s md_resync_s
while IFS=$'\t' read -r run arm wl layout dir; do
  mb=$(one "$run" mbps_arm) || exit 1
  num_pos "$mb" || fail "arm $arm ($wl): MB/s is '$mb'"
  rs=$(one "$run" md_resync_s) || exit 1
  case $layout in
    md-raid1|md-raid10|md-raid5|md-raid6) num_pos "$rs" || fail "arm $arm ($layout): md_resync_s is '$rs'" ;;
    *) [ -z "$rs" ] || fail "arm $arm: md_resync_s recorded ($rs) for a layout without a resync ($layout)" ;;
  esac
  case $wl in
    seq_write|seq_read)
      p99=$(one "$run" clat_p99_ms) || exit 1
      num_pos "$p99" || fail "arm $arm ($wl): clat_p99_ms is '$p99'"
      # fio's JSON report: the side the workload asked for moved io_size, the other nothing
      fj=$r/$dir/guest-1/fio.json
      [ -s "$fj" ] || fail "arm $arm: no fio report $fj"
      side=${wl#seq_} other=$([ "$wl" = seq_write ] && echo read || echo write)
      moved=$(jq -r --arg s "$side" '[.jobs[][$s].io_bytes] | add' "$fj")
      idle=$(jq -r --arg s "$other" '[.jobs[][$s].io_bytes] | add' "$fj")
      [ "$moved" = 67108864 ] || fail "arm $arm ($wl): fio's $side io_bytes is '$moved', expected 64M"
      [ "$idle" = 0 ] || fail "arm $arm ($wl): fio's $other io_bytes is '$idle', expected 0" ;;
    tar_extract)
      tb=$(one "$run" tar_archive_bytes) || exit 1
      [ "$tb" = 68462110 ] || fail "arm $arm: tar_archive_bytes is '$tb'" ;;
    *) fail "arm $arm: '$wl' is no raw I/O workload" ;;
  esac
  seen_wl="$seen_wl $wl"
  printf '%-14s %-12s %-12s %10.1f %12s\n' "$arm" "$layout" "$wl" "$mb" "${rs:--}"
done <<< "$runs"
for wl in seq_write seq_read tar_extract; do
  contains "$seen_wl" "$wl" || fail "workload $wl never ran"
done

expect_rc 0 "$VBED" report "$r"
contains "$out" "MB/s mean" || fail "the report's headline is not MB/s"
echo "$out" | sed -n '1,60p'
