# mariadb-slap.sh: workload = mariadb_slap for real, on the host arm and in
# a guest: each measures queries per second with its clients (slap_clients
# = threads) the same number of queries (table_size: slap_clients x
# slap_queries_per_client), the arm's headline is q/s (qps_arm, the
# report's column says q/s), its inserts commit through InnoDB
# (innodb_data_fsyncs > 0 over the measure phase), the raw report is kept,
# and nothing is left.
# vbed-test: paired 49 (its checks are signs and counts: a neighbour cannot change them)
. "$VBED_SRC/tests/lib.sh"
need_libvirt
need_prog jq

cat > "$VBED_TEST_TMP/slap.ini" <<'INI'
[global]
workload    = mariadb_slap
threads     = 2
table_size  = 600
memory      = 768M
buffer_pool = 64M
disk_size   = 256M
order       = fixed

[host]
arm = host

[guest]
arm = guest
INI
res=$VBED_TEST_TMP/res
expect_rc 0 "$VBED" run --id e2eslap -o "$res" "$VBED_TEST_TMP/slap.ini"
assert_nothing_left e2eslap
r=$(latest_results "$res")
s=$r/samples.jsonl
jq -c . "$s" > /dev/null || fail "a line of samples.jsonl does not parse"
num_pos() { awk -v v="$1" 'BEGIN { exit !(v ~ /^[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$/ && v > 0) }'; }
for arm in host guest; do
  q=$(jq -r --arg a "$arm" 'select(.metric == "qps_arm" and .labels.arm == $a) | .value' "$s")
  [ "$(echo "$q" | grep -c .)" -eq 1 ] && num_pos "$q" || fail "arm $arm: qps_arm is '$q'"
  c=$(jq -r --arg a "$arm" 'select(.metric == "slap_clients" and .labels.arm == $a) | .value' "$s")
  [ "$c" = 2 ] || fail "arm $arm: slap_clients is '$c', expected threads = 2"
  n=$(jq -r --arg a "$arm" 'select(.metric == "slap_queries_per_client" and .labels.arm == $a) | .value' "$s")
  [ "$n" = 300 ] || fail "arm $arm: $n queries per client, expected table_size / threads = 300"
  w=$(jq -r --arg a "$arm" 'select(.metric == "innodb_data_fsyncs" and .labels.arm == $a) | .value' "$s")
  num_pos "$w" || fail "arm $arm: its inserts did not commit through InnoDB (innodb_data_fsyncs '$w')"
  echo "arm $arm: $q q/s"
done
out_file=$(ls "$r"/runs/*-guest/guest-1/slap-measure.out) || fail "the guest's raw report was not kept"
grep -q "Average number of seconds to run all queries" "$out_file" || fail "the raw report is not mariadb-slap's"
expect_rc 0 "$VBED" report --no-html "$r"
contains "$out" "q/s" || fail "the report's headline is not q/s"
echo "$out" | sed -n '1,20p'
