# copy-page-compressed.sh: page-compressed tables (tests/data/scenarios/
# copy-page-compressed.ini: 2 x 20,000 rows, page-zlib, prepare = copy)
# copied into both kinds of target: host-prepare loads them once; the host
# arm imports that copy, its files written into mysql's datadir by the
# mysql user (via local), and a guest imports it through its tables disk
# (each file's holes dug again in the guest: fallocate takes one file at a
# time, and a call with both made every page-compressed copy fall back to
# loading). Both then hold sparse tables: the compression took effect and
# the ratio of each is above 2 (without its holes a page-compressed file
# takes what an uncompressed one does: a ratio near 1; loaded here, 3.8),
# and the host arm's and
# the guest's allocations agree within 5 % (the same holes, in two
# filesystems); nothing is left.
. "$VBED_SRC/tests/lib.sh"
need_libvirt
need_prog jq

img=$("$VBED" image path) || fail "the guest image is not built"
# no copy of these tables before: host-prepare must make it
for m in "$img"/prepared/*/meta.json; do
  [ -f "$m" ] || continue
  jq -e '.tables == 2 and .table_size == 20000 and (.table_options | test("PAGE_COMPRESSED"))' "$m" \
    >/dev/null && rm -rf "$(dirname "$m")"
done
expect_rc 0 "$VBED" run --id e2ecpc -o "$VBED_TEST_TMP/res" tests/data/scenarios/copy-page-compressed.ini
echo "$err" | grep -E "host-prepare|tables (copied|loaded)|files (were written|came)|compression"
assert_nothing_left e2ecpc
r=$(latest_results "$VBED_TEST_TMP/res")
contains "$err" "host-prepare: a copy of its tables kept for the guests" || fail "host-prepare made no copy"
jq -e '[.runs[] | select(.arm == "host") | .prepare[] | [.how, .from, .via]] == [["copied", "host arm", "local"]]' \
  "$r/meta.json" >/dev/null || fail "the host arm did not import the copy: $(jq -c '[.runs[] | {arm, prepare}]' "$r/meta.json")"
jq -e '[.runs[] | select(.arm == "guest") | .prepare[] | [.how, .from, .via]] == [["copied", "host arm", "disk"]]' \
  "$r/meta.json" >/dev/null || fail "the guest did not import the copy: $(jq -c '[.runs[] | {arm, prepare}]' "$r/meta.json")"
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
