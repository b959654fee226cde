# quickstart.sh: the shipped quickstart.ini for real (host arm, a 2-guest
# arm and a tuned guest, row-zlib compression): every arm yields TPS, the
# compression took effect everywhere, the writeback guests' data disks sit in
# the host page cache after the measure phase and the cache=none guest's do
# not, the guests started measuring within a second of each other, every
# sample line parses, the report shows the three arms, and nothing is left.
. "$VBED_SRC/tests/lib.sh"
need_libvirt
need_prog jq

res=$VBED_TEST_TMP/res
start=$SECONDS
expect_rc 0 "$VBED" run --id e2eqs -o "$res" scenarios/quickstart.ini
echo "$out"
echo "wall time: $((SECONDS - start)) s"
assert_nothing_left e2eqs
r=$(latest_results "$res")
s=$r/samples.jsonl
jq -c . "$s" > /dev/null || fail "a line of samples.jsonl does not parse"
jq -e '.status == "complete"' "$r/meta.json" >/dev/null || fail "meta.json status"
[ "$(jq -r .versions.mariadb_host "$r/meta.json")" = "$(jq -r .versions.mariadb_guest "$r/meta.json")" ] ||
  fail "the host and guest arms ran different MariaDB builds"

q() { jq -r "select($1) | .value" "$s"; }
# the checks below want exactly one number: a missing sample ("") or two
# of them must fail, not compare as a string
for arm in host guest tuned; do
  tps=$(q ".metric == \"tps_arm\" and .labels.arm == \"$arm\"")
  [ -n "$tps" ] || fail "arm $arm: no tps_arm"
  awk -v v="$tps" 'BEGIN { exit !(v ~ /^[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$/ && v > 0) }' || fail "arm $arm: TPS $tps"
  echo "arm $arm: $tps tx/s"
done
# compression verified in all four servers
[ "$(q '.metric == "compression_ratio" and .value > 1.05' | wc -l)" -eq 4 ] || fail "compression ratio"
[ "$(q '.metric == "cmp_compress_ops" and .value > 0' | wc -l)" -eq 4 ] || fail "INNODB_CMP compress ops"
# host page cache: writeback guests cached, the cache=none guest not
for g in 1 2; do
  b=$(q ".metric == \"host_cache_data_bytes\" and .labels.arm == \"guest\" and .labels.guest == $g and .labels.when == \"after\"")
  awk -v v="$b" 'BEGIN { exit !(v ~ /^[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$/ && v > 1048576) }' || fail "writeback guest $g: only $b bytes of its data disk cached"
  echo "writeback guest $g: $b bytes of its data disk in the host page cache"
done
b=$(q '.metric == "host_cache_data_bytes" and .labels.arm == "tuned" and .labels.when == "after"')
awk -v v="$b" 'BEGIN { exit !(v ~ /^[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$/ && v < 1048576) }' || fail "cache=none guest: $b bytes cached"
echo "cache=none guest: $b bytes"
skew=$(q '.metric == "measure_start_skew_s" and .labels.arm == "guest"')
awk -v v="$skew" 'BEGIN { exit !(v ~ /^[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$/ && v < 1) }' || fail "guests started $skew s apart"
echo "start skew: $skew s"

[ -f "$r/summary.csv" ] || fail "no summary.csv"
expect_rc 0 "$VBED" report "$r"
for arm in host guest tuned; do contains "$out" "  $arm " || fail "report lacks arm $arm"; done
contains "$out" "guest/host" || fail "report lacks the Guest/Host ratio"
[ -f "$r/report.html" ] || fail "no report.html"
