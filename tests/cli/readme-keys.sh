# readme-keys.sh: docs/keys.md is what the key table says
# (regenerate it with `make readme-keys`).
. "$VBED_SRC/tests/lib.sh"
"$VBED" help keys --markdown > "$VBED_TEST_TMP/keys.md" || fail "help keys --markdown"
awk '/<!-- keys:begin -->/{on=1; next} /<!-- keys:end -->/{on=0} on' docs/keys.md > "$VBED_TEST_TMP/readme.md"
diff -u "$VBED_TEST_TMP/keys.md" "$VBED_TEST_TMP/readme.md" || fail "docs/keys.md is stale: run make readme-keys"
