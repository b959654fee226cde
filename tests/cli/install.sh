# install.sh: `make install PREFIX=... DESTDIR=...` installs the binary, the
# shipped scenarios, the image recipe, the man page and the bash completion;
# the installed vbed finds its recipe (the same image id as the source
# tree's) and scenarios, `man -l` renders the installed page without
# warnings, and the installed completion registers itself for vbed.
. "$VBED_SRC/tests/lib.sh"
need_prog make

dest=$VBED_TEST_TMP/dest
make -s -C "$VBED_SRC" install PREFIX=/opt/vbed DESTDIR="$dest" >/dev/null || fail "make install"
bin=$dest/opt/vbed/bin/vbed
[ -x "$bin" ] || fail "no binary at $bin"
for f in scenarios/quickstart.ini scenarios/paper.ini guest-images/debian-mariadb/recipe.ini \
         guest-images/debian-mariadb/files/usr/local/sbin/vbed-setup scripts/start-daemons.sh; do
  [ -e "$dest/opt/vbed/share/vbed/$f" ] || fail "not installed: $f"
done
[ -x "$dest/opt/vbed/share/vbed/guest-images/debian-mariadb/files/usr/local/sbin/vbed-setup" ] ||
  fail "vbed-setup lost its executable bit"
src_id=$(basename "$("$VBED" image path 2>/dev/null)")
inst_id=$(basename "$("$bin" image path 2>/dev/null)")
[ -n "$src_id" ] && [ "$src_id" = "$inst_id" ] || fail "installed recipe gives image '$inst_id', source tree '$src_id'"
expect_rc 0 "$bin" run --dry-run "$dest/opt/vbed/share/vbed/scenarios/quickstart.ini"
expect_rc 0 "$bin" help keys
man1=$dest/opt/vbed/share/man/man1/vbed.1
[ -f "$man1" ] || fail "no man page at $man1"
"$bin" help man | cmp -s - "$man1" || fail "the installed man page is not what the installed vbed generates"
command -v man >/dev/null 2>&1 || skip "no man (make deps installs man-db): the installed page cannot be rendered"
if true; then
  MANWIDTH=80 MANPAGER=cat man --warnings=w -l "$man1" > "$VBED_TEST_TMP/man.txt" 2>"$VBED_TEST_TMP/man.err" ||
    fail "man -l failed on the installed page"
  [ ! -s "$VBED_TEST_TMP/man.err" ] || { cat "$VBED_TEST_TMP/man.err" >&2; fail "man -l warns"; }
  grep -q "SCENARIO KEYS" "$VBED_TEST_TMP/man.txt" || fail "man -l: no SCENARIO KEYS section"
fi
comp=$dest/opt/vbed/share/bash-completion/completions/vbed
[ -f "$comp" ] || fail "no bash completion at $comp"
"$bin" help bash-completion | cmp -s - "$comp" || fail "the installed completion is not what the installed vbed generates"
bash -c ". '$comp' && complete -p vbed" | grep -q "_vbed vbed" || fail "the installed completion does not register _vbed for vbed"
