# restore.sh: guests restored from a saved ready guest (start = restore,
# the default): the first run makes the saved guest if the cache has none
# (vbed image list shows it), both guests of a run are restored from it
# under their own names (meta.json's guest_start, boot_to_ready_s labelled
# start=restored, a restore_s each), run the workload, and leave nothing;
# SIGINT while they are restored and set up leaves nothing (no domain, no
# disk, no copy of the save image); after SIGKILL of vbed the restored
# domains outlive it (a restored domain does not die with the connection)
# and `vbed clean` removes them and everything else of the session.
. "$VBED_SRC/tests/lib.sh"
need_libvirt
need_prog jq

t=$VBED_TEST_TMP
expect_rc 0 "$VBED" run --id e2erst -o "$t/res" tests/data/scenarios/two-guests.ini
echo "$err" | grep -E "saved a ready guest|restoring|boot" | head -n 5
assert_nothing_left e2erst
r=$(latest_results "$t/res")
s=$r/samples.jsonl
jq -e '[.runs[0].guest_start[].start] == ["restored", "restored"]' "$r/meta.json" >/dev/null ||
  fail "meta.json does not say both guests were restored: $(jq -c .runs[0].guest_start "$r/meta.json")"
[ "$(jq -r 'select(.metric == "boot_to_ready_s" and .labels.start == "restored") | .value' "$s" | wc -l)" -eq 2 ] ||
  fail "boot_to_ready_s is not labelled start=restored for both guests"
for g in 1 2; do
  v=$(jq -r --argjson g $g 'select(.metric == "restore_s" and .labels.guest == $g) | .value' "$s")
  awk -v v="$v" 'BEGIN { exit !(v ~ /^[0-9.]+([eE][-+]?[0-9]+)?$/ && v > 0) }' || fail "guest $g: restore_s is '$v'"
  tps=$(jq -r --argjson g $g 'select(.metric == "tps" and .labels.guest == $g) | .value' "$s")
  awk -v v="$tps" 'BEGIN { exit !(v > 0) }' || fail "guest $g: TPS '$tps' after a restore"
  grep -q "<name>vbed-e2erst-001-guest-$g</name>" "$r/runs/001-guest/guest-$g/domain.xml" ||
    fail "guest $g: the run's domain name is not its own"
  [ -s "$r/runs/001-guest/guest-$g/console.log" ] || fail "guest $g: no console log (vbed-setup writes to it)"
done
expect_rc 0 "$VBED" image list
contains "$out" "+ saved ready guest" || fail "vbed image list does not show the saved ready guest"
echo "$out"

# SIGINT while the guests are restored and set up
log=$t/log2
"$VBED" run --id e2erss -o "$t/res2" tests/data/scenarios/two-guests.ini >"$log" 2>&1 &
pid=$!
wait_for_log "$log" $pid "vbed-e2erss-001-guest-2: \\(restoring\\|setup\\)" 1 300
kill -INT $pid
wait $pid
rc=$?
cat "$log"
[ $rc -eq 130 ] || fail "exit code $rc after SIGINT, expected 130"
assert_nothing_left e2erss
if ls /var/lib/vbed/pool 2>/dev/null | grep -q -- "-state.save"; then fail "a copy of the save image was left"; fi

# SIGKILL in the measure phase: the restored domains outlive vbed until clean
sed 's/^duration    = 10s/duration    = 5m/' tests/data/scenarios/two-guests.ini > "$t/long.ini"
log=$t/log3
"$VBED" run --id e2erkl -o "$t/res3" "$t/long.ini" >"$log" 2>&1 &
pid=$!
wait_for_log "$log" $pid 'measure: ' 1 300
wait_guest_proc vbed-e2erkl-001-guest-1 sysbench
kill -KILL $pid
wait $pid
# a domain that died with the connection would be gone within a second or two
for _ in $(seq 1 10); do
  pgrep -f "qemu-system.*vbed-e2erkl-" >/dev/null ||
    fail "the restored domains died with vbed's connection (expected them to outlive it until clean)"
  sleep 0.5
done
expect_rc 0 "$VBED" clean
echo "$out"
assert_nothing_left e2erkl
