# man-page.sh: `vbed help man` (build/vbed.1, installed as vbed(1)) renders
# with groff -ww without a warning and names every command with every
# option, every scenario key (as its own entry under SCENARIO KEYS), every
# exit code, environment variable and file that `vbed help` lists. The
# check is also run on a page with one key removed, and must catch it: a
# key added to the table but missing from the page fails this test.
. "$VBED_SRC/tests/lib.sh"
need_prog groff

page=$VBED_TEST_TMP/vbed.1
expect_rc 0 "$VBED" help man
printf '%s\n' "$out" > "$page"

# render PAGE: plain text (no overstrike) into $text; fails on any warning
render() {
  text=$(groff -ww -man -Tutf8 -P-cbou "$1" 2>"$VBED_TEST_TMP/groff.err") || fail "groff failed on $1"
  [ ! -s "$VBED_TEST_TMP/groff.err" ] || { cat "$VBED_TEST_TMP/groff.err" >&2; fail "groff warns about $1"; }
}

# section NAME: the rendered text of one section
section() { printf '%s\n' "$text" | awk -v s="$1" '/^[A-Z]/{on = ($0 == s)} on'; }

keys=$("$VBED" help keys --markdown | sed -nE 's/^\| `([a-z0-9_]+)` \|.*/\1/p')
[ "$(echo "$keys" | wc -l)" -ge 40 ] || fail "could not read the key table from 'vbed help keys --markdown'"

# missing_keys: the keys that have no entry under SCENARIO KEYS of $text
missing_keys() {
  local sec; sec=$(section "SCENARIO KEYS")
  for k in $keys; do
    printf '%s\n' "$sec" | grep -qE "^       $k( |\$)" || echo "$k"
  done
}

render "$page"
missing=$(missing_keys)
[ -z "$missing" ] || fail "keys with no entry in the man page: $missing"

# every command, its options and the global ones
commands=$("$VBED" --help | awk '/^Commands:/{on=1; next} /^$/{on=0} on {print $1}')
[ "$(echo "$commands" | wc -w)" -ge 8 ] || fail "could not read the commands from vbed --help"
cmds=$(section COMMANDS)
for c in $commands; do
  printf '%s\n' "$cmds" | grep -qE "^   vbed $c( |\$)" || fail "command $c has no section in the man page"
  opts=$("$VBED" "$c" --help | awk '/^Options:/{on=1; next} on' | grep -oE '^(  -[a-zA-Z], |      )--[a-z-]+' | grep -oE -- '--[a-z-]+' | grep -v -- '--help')
  body=$(printf '%s\n' "$cmds" | awk -v c="vbed $c" 'index($0, "   " c) == 1 {on = 1; next} /^   vbed /{on = 0} on')
  for o in $opts; do
    printf '%s\n' "$body" | grep -qE -- "^       (-[a-zA-Z], )?$o(=| |\$)" || fail "option $o of vbed $c is not in its man page section"
  done
done
for o in $("$VBED" --help | awk '/^Global options:/{on=1; next} /^$/{on=0} on' | grep -oE -- '--[a-z-]+'); do
  section OPTIONS | grep -qE -- "^       (-[a-zA-Z], )?$o(=| |\$)" || fail "global option $o is not under OPTIONS"
done

# exit codes, environment, files
for code in $("$VBED" help exit-codes | sed -nE 's/^  ([0-9]+) .*/\1/p'); do
  section "EXIT STATUS" | grep -qE "^       $code( |\$)" || fail "exit code $code is not under EXIT STATUS"
done
for v in $("$VBED" help environment | sed -nE 's/^  ([A-Z_]+)$/\1/p'); do
  section ENVIRONMENT | grep -qE "^       $v( |\$)" || fail "\$$v is not under ENVIRONMENT"
done
section FILES | grep -q "results/<UTC time>-<scenario>/" || fail "results/ is not under FILES"

# the check itself: a page without buffer_pool's entry must be caught
awk '{l[NR] = $0}
     END {for (i = 1; i <= NR; i++) {
            if (l[i] == ".TP" && l[i + 1] == "\\fBbuffer_pool\\fR") {
              for (i++; i < NR && l[i + 1] != ".TP" && l[i + 1] !~ /^\.SH/; i++) ;
              continue
            }
            print l[i]
          }}' "$page" > "$VBED_TEST_TMP/broken.1"
grep -q 'buffer_pool\\fR$' "$VBED_TEST_TMP/broken.1" && fail "could not remove buffer_pool from the copy"
render "$VBED_TEST_TMP/broken.1"
[ "$(missing_keys)" = buffer_pool ] || fail "the key check did not notice buffer_pool missing from a page"

# man(1) renders it as installed (man-db), without warnings
command -v man >/dev/null 2>&1 || skip "no man (make deps installs man-db): the page cannot be rendered as installed"
if true; then
  MANWIDTH=80 MANPAGER=cat man --warnings=w -l "$page" >/dev/null 2>"$VBED_TEST_TMP/man.err" || fail "man -l failed"
  [ ! -s "$VBED_TEST_TMP/man.err" ] || { cat "$VBED_TEST_TMP/man.err" >&2; fail "man -l warns"; }
fi
echo "man page: $(echo $commands | wc -w) commands, $(echo $keys | wc -w) keys, no groff warnings"
