# disk-layouts.sh: tests/data/scenarios/disk-layouts-tiny.ini for real (4
# data disks of 256M per guest; md RAID 0/10/5/6 with ext4 and btrfs RAID
# 0/10/5/6; seq_write of 64M and tar_extract of the image's archive): every
# layout and workload yields MB/s > 0, the redundant md arrays record how
# long their initial resync took (md_resync_s > 0) and md-raid0 records
# none, fio's latency percentiles are there, the report's headline is MB/s,
# and nothing is left. Prints the MB/s table. About 30-40 min under TCG.
. "$VBED_SRC/tests/lib.sh"
need_libvirt
need_prog jq

scn=${VBED_DISK_LAYOUTS_SCENARIO:-tests/data/scenarios/disk-layouts-tiny.ini}
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
arms=$(sed -n 's/^arm *= *guest$/guest/p; s/^\[\([a-z0-9_]*\)\]$/\1/p' "$scn" | grep -v -e '^global$' -e '^guest$')
[ -n "$arms" ] || fail "no arms in $scn"
printf '%-14s %12s %12s %12s\n' arm seq_write tar_extract md_resync_s
for arm in $arms; do
  row=""
  for wl in seq_write tar_extract; do
    # the run of this arm whose variant has this workload (variant labels name it)
    v=$(jq -r --arg wl "$wl" '.variants[] | select(.label | test("workload=" + $wl)) | .index' "$r/meta.json" 2>/dev/null | head -n 1)
    [ -n "$v" ] || v=$([ $wl = seq_write ] && echo 1 || echo 2)
    mb=$(jq -r --arg a "$arm" --argjson v "$v" \
      'select(.metric == "mbps_arm" and .labels.arm == $a and (.labels.variants | index($v))) | .value' "$s")
    [ "$(echo "$mb" | grep -c .)" -eq 1 ] || fail "arm $arm, $wl: expected one mbps_arm, got '$mb'"
    num_pos "$mb" || fail "arm $arm, $wl: MB/s is $mb"
    row="$row $(printf '%12.1f' "$mb")"
  done
  rs=$(jq -r --arg a "$arm" 'select(.metric == "md_resync_s" and .labels.arm == $a) | .value' "$s")
  case $arm in
    md_raid10|md_raid5|md_raid6)
      [ "$(echo "$rs" | grep -c .)" -eq 2 ] || fail "arm $arm: expected md_resync_s in both runs, got '$rs'"
      for x in $rs; do num_pos "$x" || fail "arm $arm: md_resync_s $x"; done ;;
    *) [ -z "$rs" ] || fail "arm $arm: md_resync_s recorded ($rs) for a layout without a resync" ;;
  esac
  printf '%-14s%s %12s\n' "$arm" "$row" "$(echo $rs | tr ' ' ',')"
done
# fio's latency percentiles and tar's archive size
[ "$(jq -r 'select(.metric == "clat_p99_ms") | .value' "$s" | grep -c .)" -ge 1 ] || fail "no clat_p99_ms"
[ "$(jq -r 'select(.metric == "tar_archive_bytes") | .value' "$s" | sort -u)" = 68462110 ] || fail "tar_archive_bytes"

expect_rc 0 "$VBED" report "$r"
contains "$out" "MB/s mean" || fail "the report's headline is not MB/s"
echo "$out" | sed -n '1,60p'
