# install.sh: `make install PREFIX=... DESTDIR=...` installs the binary, the
# shipped scenarios and the image recipe; the installed vbed finds its
# recipe (the same image id as the source tree's) and scenarios.
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
