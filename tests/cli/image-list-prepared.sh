# image-list-prepared.sh: `vbed image list` shows the image cache's prepared
# tables a line each with their rows and table options -- "no table options"
# for plain tables (not an empty field), "?" for a meta.json whose options
# are null -- and their size.
. "$VBED_SRC/tests/lib.sh"
export VBED_CACHE_DIR=$VBED_TEST_TMP/cache
img=$VBED_CACHE_DIR/images/debian-mariadb-0123456789ab
mkdir -p "$img/prepared/k2" "$img/prepared/k3"
echo '{}' > "$img/manifest.json"
: > "$img/root.qcow2"
echo '{"tables": 1, "table_size": 2000, "table_options": "", "bytes": 1000000}' > "$img/prepared/k2/meta.json"
echo '{"tables": 2, "table_size": 10, "table_options": null, "bytes": 0}' > "$img/prepared/k3/meta.json"
expect_rc 0 "$VBED" image list
echo "$out"
contains "$out" "+ prepared tables k2: 1 x 2000 rows, no table options, 1 MB" || fail "plain tables"
contains "$out" "+ prepared tables k3: 2 x 10 rows, ?, 0 MB" || fail "null table options"
