# bad-scenarios.sh: every scenario under tests/data/bad/ is refused with exit
# 2 and exactly the messages in its .err file (file:line, key, bad value,
# accepted values), and nothing is started. VBED_UPDATE_GOLDEN=1 rewrites
# the .err files (never in CI) -- so each .ini also says, in its first line,
# what it expects on its own (`; expect: LINE WORD, ...`: the line of each
# problem and a word its message names, the key or the section, which that
# line holds; `=WORDS`: words of the message alone), and the
# messages are checked against that too: a .err rewritten from a program
# that reports the wrong line or key fails here.
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
  # the file's own expectation, apart from the golden file
  want=$(sed -n '1s/^; expect: //p' "$ini")
  [ -n "$want" ] || fail "$ini: no '; expect:' first line"
  got=$(grep -E "^$ini:[0-9]+: " "$VBED_TEST_TMP/err" | sed -E "s|^$ini:([0-9]+): .*|\1|" | tr '\n' ' ')
  case $want in
    "no line"*)
      [ -z "$got" ] || fail "$ini: expected a problem of the whole file, got lines $got" ;;
    *)
      lines=""
      IFS=, read -ra items <<<"$want"
      for item in "${items[@]}"; do
        item=${item# }
        line=${item%% *} word=${item#* }
        lines="$lines$line "
        # a key or section is on its line; "=words" are the message's alone
        case $word in
          =*) word=${word#=} ;;
          *) sed -n "${line}p" "$ini" | grep -qF -- "$word" || fail "$ini: line $line does not hold '$word' (its expect line is wrong)" ;;
        esac
        grep -E "^$ini:$line: " "$VBED_TEST_TMP/err" | grep -qF -- "$word" ||
          fail "$ini: no message at line $line naming '$word': $(cat "$VBED_TEST_TMP/err")"
      done
      [ "$got" = "$lines" ] || fail "$ini: problems reported at lines '$got', expected '$lines'" ;;
  esac
  n=$((n + 1))
done
[ $n -ge 20 ] || fail "only $n bad scenarios found"

# a file that does not exist, and a directory
expect_rc 2 "$VBED" run --dry-run tests/data/bad/no-such-file.ini
contains "$err" "tests/data/bad/no-such-file.ini: cannot open the scenario: No such file or directory" || fail "missing file"
expect_rc 2 "$VBED" run --dry-run tests/data/bad
contains "$err" "tests/data/bad: cannot read the scenario: Is a directory" || fail "directory"
echo "$n bad scenarios refused with the expected messages"
