# sigint-host-prepare.sh: SIGINT while the guests' tables load on this
# machine before the first run (experiment/hostprepare.h): vbed exits 130,
# no guest was started, the private mariadbd, its directory and its socket
# are gone, no copy of the half-loaded tables is kept (nor a temporary
# one), and meta.json says interrupted. The tables (4 x 150,001 rows, a
# size no other test uses) load for about half a minute here.
# vbed-test: paired 4 (tests/run-tests.sh: it may run beside another)
. "$VBED_SRC/tests/lib.sh"
need_root
need_libvirt
need_prog jq

img=$("$VBED" image path) || fail "the guest image is not built"
sc=$VBED_TEST_TMP/hp.ini
sed -e 's/^tables .*/tables      = 4/' -e 's/^table_size .*/table_size  = 150001/' \
  tests/data/scenarios/one-guest.ini > "$sc"
echo "prepare = copy" >> "$sc"
gone() { # no copy of these tables in the image cache
  for m in "$img"/prepared/*/meta.json; do
    [ -f "$m" ] && jq -e '.table_size == 150001' "$m" >/dev/null && return 1
  done
  return 0
}
gone || fail "a copy of the test's tables is in the cache before the run"
log=$VBED_TEST_TMP/log
"$VBED" run --id e2ehp -o "$VBED_TEST_TMP/res" "$sc" >"$log" 2>&1 &
pid=$!
wait_for_log "$log" $pid 'host-prepare: loading 4 tables of 150001 rows' 1 120
wait_proc "^sysbench .*vbed-e2ehp-000-prepare1" 30
pgrep -f "mariadbd.*vbed-e2ehp-000-prepare1" >/dev/null || fail "no private mariadbd while the tables load"
kill -INT $pid
wait $pid
rc=$?
cat "$log"
[ $rc -eq 130 ] || fail "exit code $rc, expected 130"
assert_nothing_left e2ehp
gone || fail "a copy of the interrupted load was kept"
ls -a "$img/prepared" | grep -q '^\.tmp-' && fail "a temporary copy was left in $img/prepared"
grep -q 'run e2ehp-001' "$log" && fail "a run started after the interruption"
grep -q "tables are ready" "$log" && fail "the interrupted load was said to be ready"
r=$(latest_results "$VBED_TEST_TMP/res")
jq -e '.status == "interrupted"' "$r/meta.json" >/dev/null || fail "meta.json does not say interrupted"
echo "interrupted while loading; nothing left"
