# overlay-keep-clean.sh: a guest's root disk is a qcow2 overlay on the
# pool's base image (never a copy), small; --keep keeps the disks, and
# `vbed clean` then removes exactly those of the dead session. The three
# guests (tests/data/scenarios/disk-modes.ini) run the cache modes and
# formats quickstart does not -- writethrough/qcow2, directsync/raw,
# unsafe/qcow2 -- and each runs so: libvirt's XML of the running domain
# (domain-live.xml, recorded by vbed, read here with xmllint) and
# qemu-img's reading of the kept data disk say the arm's mode and format.
# vbed-test: paired 52 (tests/run-tests.sh: it may run beside another)
. "$VBED_SRC/tests/lib.sh"
need_libvirt
need_prog jq

need_prog xmllint
expect_rc 0 "$VBED" run --id e2ekeep -o "$VBED_TEST_TMP/res" --boot-only --keep tests/data/scenarios/disk-modes.ini
r=$(latest_results "$VBED_TEST_TMP/res")
pool=/var/lib/vbed/pool
for spec in 001:guest:writethrough:qcow2:threads 002:direct:directsync:raw:native 003:unsafe:unsafe:qcow2:threads; do
  IFS=: read -r seq arm cache format io <<<"$spec"
  live=$r/runs/$seq-$arm/guest-1/domain-live.xml
  [ -s "$live" ] || fail "no domain-live.xml for the $arm arm"
  drv() { xmllint --xpath "string(//disk[serial='vbed-data']/driver/@$1)" "$live"; }
  [ "$(drv cache)/$(drv type)/$(drv io)" = "$cache/$format/$io" ] ||
    fail "the $arm arm's running domain has cache/type/io $(drv cache)/$(drv type)/$(drv io), not $cache/$format/$io"
  data=$pool/vbed-e2ekeep-$seq-$arm-1-data.$format
  [ -f "$data" ] || fail "the $arm arm's data disk $data was not kept"
  [ "$(qemu-img info --output=json -U "$data" | jq -r .format)" = "$format" ] ||
    fail "the $arm arm's data disk is not $format to qemu-img"
  echo "$arm: running with cache=$cache io=$io, data disk $format"
done
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

expect_rc 0 "$VBED" clean --session e2ekeep
contains "$out" "removed volume $pool/vbed-e2ekeep-001-guest-1-root.qcow2" || fail "clean did not remove the overlay"
contains "$out" "removed volume $pool/vbed-e2ekeep-001-guest-1-data.qcow2" || fail "clean did not remove the data disk"
case $out in *vbed-image-*) fail "clean removed an image without --images";; esac
assert_nothing_left e2ekeep
