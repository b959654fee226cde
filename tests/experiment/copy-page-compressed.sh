# copy-page-compressed.sh: page-compressed tables (tests/data/scenarios/
# copy-page-compressed.ini: 2 x 20,000 rows, page-zlib, prepare = copy)
# copied into both kinds of target: host-prepare loads them once and keeps
# a copy with their holes (sbtest1.ibd takes the blocks it took in the
# loading server, not its size); the host arm imports that copy, its files
# written into mysql's datadir by the mysql user (via local), and a guest
# imports it through its tables disk (a pax archive whose sparse map tar
# restores; before, a fallocate --dig-holes given both files at once failed
# and every page-compressed copy into a guest fell back to loading). Both
# then hold sparse tables: the compression took effect, the ratio of each
# is above 2 (a page-compressed file without its holes takes what an
# uncompressed one does: a ratio near 1), and the host arm's and the
# guest's allocations agree within 5 % (two filesystems). IMPORT TABLESPACE
# rewrites every page and leaves fewer blocks than the loading server did
# (ratio 5.6 against 3.8 here): printed, the server's doing; nothing is left.
# And ps_cost (the same run): after its measure phase each target switches
# performance_schema's instruments off and on in 4 pairs of 3 s slices:
# in each pair the off slice counted none of sysbench's statements (the
# switch took) and the on slice hundreds; the instruments cost a few %, so
# the median of an arm's 4 on/off TPS ratios lies in (0.6, 1.4) and each
# ratio in (0.3, 3) (a 3 s slice on this shared machine can run 40 % slower
# than the next: CI once measured 0.91 0.75 1.58 1.37 on the pinned host
# arm; a ratio of counts or of the wrong slices is off by 100x); and the
# report's ratio per arm (text and JSON) is the mean of that arm's samples
# (0.5 %).
. "$VBED_SRC/tests/lib.sh"
need_libvirt
need_prog jq

img=$("$VBED" image path) || fail "the guest image is not built"
# no copy of these tables before: host-prepare must make it
forget_prepared "$img" 2 20000 "PAGE_COMPRESSED"
expect_rc 0 "$VBED" run --id e2ecpc -o "$VBED_TEST_TMP/res" tests/data/scenarios/copy-page-compressed.ini
echo "$err" | grep -E "host-prepare|tables (copied|loaded)|files (were written|came)|compression"
assert_nothing_left e2ecpc
r=$(latest_results "$VBED_TEST_TMP/res")
contains "$err" "host-prepare: a copy of its tables kept for the guests" || fail "host-prepare made no copy"
jq -e '[.runs[] | select(.arm == "host") | .prepare[] | [.how, .from, .via]] == [["copied", "host arm", "local"]]' \
  "$r/meta.json" >/dev/null || fail "the host arm did not import the copy: $(jq -c '[.runs[] | {arm, prepare}]' "$r/meta.json")"
jq -e '[.runs[] | select(.arm == "guest") | .prepare[] | [.how, .from, .via]] == [["copied", "host arm", "disk"]]' \
  "$r/meta.json" >/dev/null || fail "the guest did not import the copy: $(jq -c '[.runs[] | {arm, prepare}]' "$r/meta.json")"
# the kept copy: the loading server's blocks, not a file of zeros filled in
key=$(jq -r '.host_prepare[0].key' "$r/meta.json")
loaded=$(jq -r 'select(.metric == "table_bytes_allocated") | .value' "$r"/host-prepare/1/samples.jsonl)
kept=$(( $(stat -c %b "$img/prepared/$key/sbtest1.ibd") * 512 ))
echo "sbtest1 where loaded: $loaded bytes on disk; the kept copy: $kept of $(stat -c %s "$img/prepared/$key/sbtest1.ibd")"
[ -n "$loaded" ] && [ "$kept" -eq "$loaded" ] || fail "the kept copy takes $kept bytes, the loaded table took $loaded"
s=$r/samples.jsonl
one() { # ARM METRIC: exactly one number
  local v
  v=$(jq -r --arg a "$1" --arg m "$2" 'select(.labels.arm == $a and .metric == $m) | .value' "$s")
  [ "$(echo "$v" | grep -c .)" -eq 1 ] || fail "$1: not one $2 ($v)"
  echo "$v"
}
hr=$(one host compression_ratio) && gr=$(one guest compression_ratio) || exit 1
ha=$(one host table_bytes_allocated) && ga=$(one guest table_bytes_allocated) || exit 1
echo "compression ratio: host arm $hr ($ha bytes), guest $gr ($ga bytes)"
awk -v h="$hr" -v g="$gr" 'BEGIN { exit !(h > 2 && g > 2) }' || fail "a copied page-compressed table is not sparse: ratios $hr, $gr"
awk -v h="$ha" -v g="$ga" 'BEGIN { d = h - g; if (d < 0) d = -d; exit !(h > 0 && d <= 0.05 * h) }' ||
  fail "the host arm's copy takes $ha bytes, the guest's $ga"
for a in host guest; do
  awk -v v="$(one $a tps_arm)" 'BEGIN { exit !(v > 0) }' || fail "$a: no TPS"
done

# ps_cost
for arm in host guest; do
  n() { jq -r --arg a "$arm" --arg m "$1" "select(.metric == \$m and .labels.arm == \$a and ($2)) | .value" "$s" | grep -c .; }
  ratios=$(jq -r --arg a "$arm" 'select(.metric == "ps_on_off_ratio" and .labels.arm == $a) | .value' "$s" | tr '\n' ' ')
  [ "$(n ps_on_off_ratio '.value > 0.3 and .value < 3')" -eq 4 ] ||
    fail "arm $arm: not 4 pairs with an on/off ratio in (0.3, 3): $ratios"
  median=$(echo "$ratios" | tr ' ' '\n' | grep . | sort -g | awk '{ v[NR] = $1 } END { print (v[2] + v[3]) / 2 }')
  awk -v m="$median" 'BEGIN { exit !(m > 0.6 && m < 1.4) }' ||
    fail "arm $arm: the median on/off ratio $median is not in (0.6, 1.4): $ratios"
  [ "$(n ps_off_statements '.value >= 0 and .value <= 10')" -eq 4 ] ||
    fail "arm $arm: an off slice counted statements (the instruments were not off)"
  [ "$(n ps_on_statements '.value > 100')" -eq 4 ] || fail "arm $arm: an on slice counted no statements"
  [ "$(n ps_on_tps '.value > 0')" -eq 4 ] && [ "$(n ps_off_tps '.value > 0')" -eq 4 ] || fail "arm $arm: a slice without TPS"
  echo "arm $arm: on/off $(jq -r --arg a "$arm" 'select(.metric == "ps_on_off_ratio" and .labels.arm == $a) | .value' "$s" | tr '\n' ' ')"
done
json=$VBED_TEST_TMP/report.json
"$VBED" report --format=json --no-html "$r" >"$json" || fail "vbed report --format=json failed"
jq -e '[.variants[0].arms[] | .ps_instruments_on_off.pairs] == [4, 4]' "$json" >/dev/null ||
  fail "the report's JSON does not give both arms 4 pairs"
for arm in host guest; do
  mean=$(jq -rs --arg a "$arm" '[.[] | select(.metric == "ps_on_off_ratio" and .labels.arm == $a) | .value] | add / length' "$s")
  rep=$(jq -r --arg a "$arm" '.variants[0].arms[] | select(.name == $a) | .ps_instruments_on_off.mean' "$json")
  awk -v m="$mean" -v r="$rep" 'BEGIN { d = m - r; if (d < 0) d = -d; exit !(m > 0 && d <= 0.005 * m) }' ||
    fail "arm $arm: the report's on/off ratio $rep is not its samples' mean $mean"
done
unwrapped "$("$VBED" report --no-html "$r")" | grep -q "performance_schema's instruments .*host [0-9.]* +- [0-9.]* (4 pairs.*guest [0-9.]* +- [0-9.]* (4 pairs" ||
  fail "the text report does not state both arms' on/off ratio"
