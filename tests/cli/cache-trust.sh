# cache-trust.sh: the image cache (--cache-dir, $VBED_CACHE_DIR) holds what
# root boots and imports (images, saved guests, tables): vbed refuses one
# that another user can change -- world-writable, or another user's -- and
# takes root's own.
. "$VBED_SRC/tests/lib.sh"
need_root
getent passwd nobody >/dev/null || skip "needs the user nobody"
c=$VBED_TEST_TMP/cache
mkdir -m 0777 "$c"
chmod 0777 "$c"
expect_rc 3 "$VBED" --cache-dir "$c" image list
contains "$err" "The cache directory '$c' cannot be used: '$c' is writable by its group or by others" ||
  fail "a world-writable cache was not refused by name: $err"
chmod 0755 "$c"
chown nobody "$c"
expect_rc 3 env VBED_CACHE_DIR="$c" "$VBED" image list
contains "$err" "belongs to uid $(id -u nobody)" || fail "another user's cache was not refused: $err"
chown root "$c"
expect_rc 0 "$VBED" --cache-dir "$c" image list
echo "refused: mode 0777, nobody's; taken: root's 0755"
