# ps-cost.sh: ps_cost switches performance_schema's instruments off and on
# in the running server after the measure phase (tests/data/scenarios/
# ps-cost-tiny.ini: the host arm and one guest, 4 pairs of 3 s slices):
# every target records 4 pairs; in each, its off slice counted none of
# sysbench's statements (the switch took) and its on slice thousands, TPS
# and their ratio are positive and finite; the report states each arm's
# on/off ratio over its 4 pairs (text and JSON); nothing is left behind.
. "$VBED_SRC/tests/lib.sh"
need_libvirt
need_prog jq

res=$VBED_TEST_TMP/res
expect_rc 0 "$VBED" run --id e2epsc -o "$res" tests/data/scenarios/ps-cost-tiny.ini
assert_nothing_left e2epsc
r=$(latest_results "$res")
s=$r/samples.jsonl
for arm in host guest; do
  n() { jq -r --arg a "$arm" --arg m "$1" "select(.metric == \$m and .labels.arm == \$a and ($2)) | .value" "$s" | grep -c .; }
  [ "$(n ps_on_off_ratio '.value > 0.2 and .value < 5')" -eq 4 ] || fail "arm $arm: not 4 pairs with a ratio in (0.2, 5)"
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
jq -e '[.variants[0].arms[] | .ps_instruments_on_off.mean | . > 0.2 and . < 5] | all' "$json" >/dev/null ||
  fail "the report's on/off ratio is not the samples'"
"$VBED" report --no-html "$r" | grep -q "performance_schema's instruments .*host [0-9.]* +- [0-9.]* (4 pairs.*guest [0-9.]* +- [0-9.]* (4 pairs" ||
  fail "the text report does not state both arms' on/off ratio"
