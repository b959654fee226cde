# host-compression.sh: on a real server (the host arm, fast): row-zlib
# records a compression ratio > 1 and INNODB_CMP compress ops; none records
# neither; page-zlib and page-lz4 compress pages, and with page-lz4 the lz4
# provider is loaded; the host arm's mariadbd is gone afterwards.
# vbed-test: paired 44 (its checks are signs and counts: a neighbour cannot change them)
. "$VBED_SRC/tests/lib.sh"
need_root
need_prog jq

expect_rc 0 "$VBED" run --id e2ecmp -o "$VBED_TEST_TMP/res" tests/data/scenarios/host-compression.ini
assert_nothing_left e2ecmp
s=$(latest_results "$VBED_TEST_TMP/res")/samples.jsonl
# runs 1..4 are the variants in order: none, row-zlib, page-zlib, page-lz4
n() { jq -r "select(.labels.seq == $1 and .metric == \"$2\") | .value" "$s"; }
[ -z "$(n 1 compression_ratio)" ] || fail "none: a compression ratio was recorded"
[ -z "$(n 1 cmp_compress_ops)" ] || fail "none: compress ops were recorded"
for seq in 2 3 4; do
  ratio=$(n $seq compression_ratio)
  awk -v v="$ratio" 'BEGIN { exit !(v > 1.05) }' || fail "run $seq: ratio '$ratio'"
  echo "run $seq: compression ratio $ratio"
done
awk -v v="$(n 2 cmp_compress_ops)" 'BEGIN { exit !(v > 0) }' || fail "row-zlib: no compress ops"
[ "$(n 4 provider_lz4_loaded)" = 1 ] || fail "page-lz4: provider_lz4 not loaded"
[ -z "$(n 3 provider_lz4_loaded)" ] || fail "page-zlib: lz4 provider checked"
for seq in 1 2 3 4; do
  awk -v v="$(n $seq tps_arm)" 'BEGIN { exit !(v > 0) }' || fail "run $seq: no TPS"
done
grep -q "innodb_compression_algorithm = lz4" "$(latest_results "$VBED_TEST_TMP/res")"/runs/004-host/my.cnf ||
  fail "page-lz4's my.cnf does not choose lz4"
