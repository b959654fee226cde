# overlay-keep-clean.sh: a guest's root disk is a qcow2 overlay on the
# pool's base image (never a copy), small; --keep keeps the disks, and
# `vbed clean` then removes exactly those of the dead session.
. "$VBED_SRC/tests/lib.sh"
need_libvirt
need_prog jq

expect_rc 0 "$VBED" run --id e2ekeep -o "$VBED_TEST_TMP/res" --boot-only --keep tests/data/scenarios/one-guest.ini
pool=/var/lib/vbed/pool
ov=$pool/vbed-e2ekeep-001-guest-1-root.qcow2
[ -f "$ov" ] || fail "--keep did not keep $ov"
info=$(qemu-img info --output=json -U "$ov")
base=$(echo "$info" | jq -r '."full-backing-filename" // ."backing-filename"')
[ "$(echo "$info" | jq -r .format)" = qcow2 ] || fail "overlay is not qcow2"
[ "$(echo "$info" | jq -r '."backing-filename-format"')" = qcow2 ] || fail "backing format is not qcow2"
case $base in "$pool"/vbed-image-*.qcow2) ;; *) fail "overlay backed by '$base', not the pool's base image";; esac
ov_bytes=$(du -B1 "$ov" | cut -f1)
base_bytes=$(du -B1 "$base" | cut -f1)
echo "overlay after boot: $ov_bytes bytes on disk; base: $base_bytes bytes ($((100 * ov_bytes / base_bytes))%)"
[ "$((ov_bytes * 100))" -lt "$((base_bytes * 2))" ] || fail "overlay is not under 2% of the base image"
[ -f "$pool/vbed-e2ekeep-001-guest-1-data.qcow2" ] || fail "data disk not kept"

expect_rc 0 "$VBED" clean
contains "$out" "removed volume $pool/vbed-e2ekeep-001-guest-1-root.qcow2" || fail "clean did not remove the overlay"
contains "$out" "removed volume $pool/vbed-e2ekeep-001-guest-1-data.qcow2" || fail "clean did not remove the data disk"
case $out in *vbed-image-*) fail "clean removed an image without --images";; esac
assert_nothing_left e2ekeep
