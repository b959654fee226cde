# build-verify.sh: `vbed image build` builds the image (or finds it in the
# cache), a second build does no work and says so; the manifest lists the
# versions actually installed; the kernel and the small initrd are there;
# inside the image (read with libguestfs) are mariadbd, sysbench, qemu-ga and
# the lz4 provider; the guest's MariaDB is the host's build.
# vbed-test: paired 16 (it measures nothing and reads the image cache only)
. "$VBED_SRC/tests/lib.sh"
need_root
need_prog jq

"$VBED" image build > "$VBED_TEST_TMP/build.out" 2>&1 || { cat "$VBED_TEST_TMP/build.out"; fail "image build"; }
expect_rc 0 "$VBED" image build
contains "$err" "is up to date" || fail "second build did not say it had nothing to do"
contains "$err" "nothing to do" || fail "second build did not say it had nothing to do"
expect_rc 0 "$VBED" image path
dir=$out
m=$dir/manifest.json
[ -f "$m" ] || fail "no manifest in $dir"

[ "$(jq -r .id "$m")" = "$(basename "$dir")" ] || fail "manifest id is not the directory's name"
[ "$(jq -r .hash "$m" | cut -c1-12)" = "${dir##*-}" ] || fail "the id does not end in the hash"
for p in mariadb-server sysbench qemu-guest-agent mariadb-plugin-provider-lz4 linux-image-amd64; do
  v=$(jq -r --arg p "$p" '.packages[$p] // empty' "$m")
  [ -n "$v" ] || fail "manifest lacks the version of $p"
  [ "$(jq -r --arg p "$p" '.all_packages[$p]' "$m")" = "$v" ] || fail "$p: key and full package lists disagree"
done
host_mariadb=$(dpkg-query -W -f '${Version}' mariadb-server)
[ "$(jq -r '.packages["mariadb-server"]' "$m")" = "$host_mariadb" ] ||
  fail "guest MariaDB $(jq -r '.packages["mariadb-server"]' "$m") differs from the host's $host_mariadb"
jq -e '.apt_sources | map(select(test(" bookworm "))) | length >= 1' "$m" >/dev/null || fail "no main suite in apt_sources"
jq -e '.sizes.root_qcow2_bytes > 100000000 and .sizes.kernel_bytes > 1000000' "$m" >/dev/null || fail "sizes"

# the kernel is a bzImage ("HdrS" at 0x202); the initrd is the small one
[ "$(dd if="$dir/vmlinuz" bs=1 skip=514 count=4 2>/dev/null)" = HdrS ] || fail "vmlinuz is not a Linux kernel"
size=$(stat -c %s "$dir/initrd.img")
[ "$size" -lt 20000000 ] || fail "initrd is $size bytes: not the small one"
lsinitramfs "$dir/initrd.img" | grep -q 'virtio_blk.ko' || fail "initrd lacks virtio_blk"
qemu-img info --output=json "$dir/root.qcow2" | jq -e '.format == "qcow2"' >/dev/null || fail "root is not qcow2"

expect_rc 0 "$VBED" image verify
for f in /usr/sbin/mariadbd /usr/bin/sysbench /usr/sbin/qemu-ga /usr/lib/mysql/plugin/provider_lz4.so; do
  contains "$out" "present  $f" || fail "image verify: $f not present"
done
contains "$out" "package  mariadb-server $host_mariadb" || fail "verify does not list mariadb-server's version"
echo "$out" | head -n 1
