# scenario-limits.sh: a scenario at the variant cap (100000) is planned in
# linear time: the dry run ends within 60 s (the quadratic de-duplication of
# runs took hours); one over the cap and a line over 4095 characters are
# refused with FILE:LINE (tests/data/bad has their exact messages); a long
# list is read whole (libinih's default 200-byte buffer cut it silently).
. "$VBED_SRC/tests/lib.sh"

ini=$VBED_TEST_TMP/at-cap.ini
grep -v '^disk_cache' tests/data/bad/too-many-variants.ini >"$ini"
start=$SECONDS
timeout 60 "$VBED" run --dry-run "$ini" >"$VBED_TEST_TMP/out" 2>"$VBED_TEST_TMP/err"
rc=$?
[ $rc -ne 124 ] || fail "the dry run of 100000 variants did not end within 60 s"
[ $rc -eq 0 ] || { cat "$VBED_TEST_TMP/err"; fail "exit $rc for 100000 variants, expected 0"; }
head -n 1 "$VBED_TEST_TMP/out" | grep -q ": 100000 variants x 1 arm, 100000 distinct runs" ||
  fail "unexpected plan: $(head -n 1 "$VBED_TEST_TMP/out")"
grep -q '^  100000  threads=10 table_size=10000 tables=10 duration=100s warmup=9s$' "$VBED_TEST_TMP/out" ||
  fail "the last variant is missing"
echo "100000 variants planned in $((SECONDS - start)) s"

expect_rc 2 "$VBED" run --dry-run tests/data/bad/too-many-variants.ini
contains "$err" "too-many-variants.ini:10: disk_cache: with this list the scenario has at least 200000 variants, more than the 100000 vbed accepts" ||
  fail "cap message"

expect_rc 2 "$VBED" run --dry-run tests/data/bad/line-too-long.ini
contains "$err" "line-too-long.ini:5: line longer than 4095 characters" || fail "long line message"

# a line of exactly 4095 characters is still read whole
{ printf '[global]\nworkload = oltp_read_only\n[guest]\narm = guest\n; '
  head -c 4093 /dev/zero | tr '\0' x; printf '\n'; } >"$VBED_TEST_TMP/max.ini"
[ "$(sed -n 5p "$VBED_TEST_TMP/max.ini" | wc -c)" -eq 4096 ] || fail "fixture: line 5 is not 4095 characters"
expect_rc 0 "$VBED" run --dry-run "$VBED_TEST_TMP/max.ini"
# a list of 79 items on a line of 300-odd characters: 79 variants, not 50
{ printf '[global]\nworkload = oltp_read_only\nthreads = 1'
  for i in $(seq 2 79); do printf ', %d' "$i"; done
  printf '\n[guest]\narm = guest\n'; } >"$VBED_TEST_TMP/long-list.ini"
expect_rc 0 "$VBED" run --dry-run "$VBED_TEST_TMP/long-list.ini"
contains "$out" ": 79 variants x 1 arm" || fail "the long list was not read whole"
echo "limits hold"
