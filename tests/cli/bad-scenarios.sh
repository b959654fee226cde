# bad-scenarios.sh: every scenario under tests/data/bad/ is refused with exit
# 2 and exactly the messages in its .err file (file:line, key, bad value,
# accepted values), and nothing is started. VBED_UPDATE_GOLDEN=1 rewrites
# the .err files.
. "$VBED_SRC/tests/lib.sh"

n=0
for ini in tests/data/bad/*.ini; do
  expected=${ini%.ini}.err
  "$VBED" run --dry-run "$ini" >"$VBED_TEST_TMP/out" 2>"$VBED_TEST_TMP/err"
  rc=$?
  [ $rc -eq 2 ] || { cat "$VBED_TEST_TMP/err"; fail "$ini: exit $rc, expected 2"; }
  [ -s "$VBED_TEST_TMP/out" ] && fail "$ini: printed a plan although it is invalid"
  if [ "${VBED_UPDATE_GOLDEN:-0}" = 1 ]; then
    cp "$VBED_TEST_TMP/err" "$expected"
  elif ! diff -u "$expected" "$VBED_TEST_TMP/err"; then
    fail "$ini: messages differ from $expected"
  fi
  n=$((n + 1))
done
[ $n -ge 20 ] || fail "only $n bad scenarios found"

# a file that does not exist, and a directory
expect_rc 2 "$VBED" run --dry-run tests/data/bad/no-such-file.ini
contains "$err" "tests/data/bad/no-such-file.ini: cannot open the scenario: No such file or directory" || fail "missing file"
expect_rc 2 "$VBED" run --dry-run tests/data/bad
contains "$err" "tests/data/bad: cannot read the scenario: Is a directory" || fail "directory"
echo "$n bad scenarios refused with the expected messages"
