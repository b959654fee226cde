# image-list-prepared.sh: `vbed image list` shows the image cache's prepared
# tables a line each with their rows and table options -- "no table options"
# for plain tables (not an empty field), "?" for a meta.json whose options
# are null -- and their size, and which were loaded on this machine (by
# host-prepare) rather than in a guest.
. "$VBED_SRC/tests/lib.sh"
export VBED_CACHE_DIR=$VBED_TEST_TMP/cache
img=$VBED_CACHE_DIR/images/debian-mariadb-0123456789ab
mkdir -p "$img/prepared/k2" "$img/prepared/k3" "$img/prepared/k4"
echo '{}' > "$img/manifest.json"
: > "$img/root.qcow2"
echo '{"tables": 1, "table_size": 2000, "table_options": "", "bytes": 1000000}' > "$img/prepared/k2/meta.json"
echo '{"tables": 2, "table_size": 10, "table_options": null, "bytes": 0}' > "$img/prepared/k3/meta.json"
echo '{"tables": 1, "table_size": 60000, "table_options": "ROW_FORMAT=COMPRESSED", "bytes": 12000000,
  "loaded_in": "host arm"}' > "$img/prepared/k4/meta.json"
expect_rc 0 "$VBED" image list
echo "$out"
contains "$out" "+ prepared tables k2: 1 x 2000 rows, no table options, 1 MB" || fail "plain tables"
contains "$out" "+ prepared tables k3: 2 x 10 rows, ?, 0 MB" || fail "null table options"
contains "$out" "+ prepared tables k4: 1 x 60000 rows, ROW_FORMAT=COMPRESSED, 12 MB, loaded on this machine" ||
  fail "tables loaded on this machine"
[ "$(echo "$out" | grep -c 'loaded on this machine')" -eq 1 ] || fail "a guest's copy said to be loaded on this machine"
