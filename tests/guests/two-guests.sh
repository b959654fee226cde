# two-guests.sh: two guests of the real image boot concurrently (under TCG
# here), `mariadb -e 'SELECT VERSION()'` answers in each through the guest
# agent, both are destroyed and their disks are gone.
. "$VBED_SRC/tests/lib.sh"
need_libvirt

expect_rc 0 "$VBED" run --id e2etwo -o "$VBED_TEST_TMP/res" --boot-only tests/data/scenarios/two-guests.ini
echo "$out"
for g in 1 2; do
  contains "$out" "vbed-e2etwo-001-guest-$g: MariaDB 10.11" || fail "guest $g: no MariaDB version"
done
contains "$err" "vbed used" || fail "no CPU figure"
assert_nothing_left e2etwo
r=$(latest_results "$VBED_TEST_TMP/res")
for g in 1 2; do
  [ -s "$r/runs/001-guest/guest-$g/console.log" ] || fail "guest $g: no console log kept"
  grep -q "<serial>vbed-data</serial>" "$r/runs/001-guest/guest-$g/domain.xml" || fail "guest $g: no domain.xml"
done
jq -e '.status == "complete" and (.accel == "tcg" or .accel == "kvm")' "$r/meta.json" >/dev/null || fail "meta.json"
[ "$(jq -c 'select(.metric == "boot_to_ready_s")' "$r/samples.jsonl" | wc -l)" -eq 2 ] || fail "boot_to_ready_s samples"
