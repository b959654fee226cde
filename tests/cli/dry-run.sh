# dry-run.sh: the plan of the shipped quickstart, and the issue's example:
# a 2-guest arm with disk_cache = none, writeback and disk_format = qcow2,
# raw is 4 variants and 8 domain XML files, each valid for libvirt and with
# the data disk's cache, format and io of its variant.
. "$VBED_SRC/tests/lib.sh"
need_prog virt-xml-validate

export LIBVIRT_DEFAULT_URI=test:///default   # offers no kvm: auto -> qemu
expect_rc 0 "$VBED" run --dry-run scenarios/quickstart.ini
contains "$out" "1 variant x 4 arms, 4 distinct runs" || fail "quickstart plan"
contains "$out" "arm guest (2 guests)" || fail "quickstart guest arm"
contains "$out" "arm host (bare host)" || fail "quickstart host arm"
# arms compared in a ratio run as many guests; tuned_memory's pool is auto's
contains "$out" "arm tuned (2 guests)" || fail "quickstart tuned arm"
contains "$out" "arm tuned_memory (2 guests)" || fail "quickstart tuned_memory arm"
contains "$out" "tuned_memory variants 1        buffer_pool: data 16.0 MiB (estimated) fits in its buffer pool (768.0 MiB, buffer_pool = auto" || fail "tuned_memory's working-set line"

cat > "$VBED_TEST_TMP/matrix.ini" <<'INI'
[global]
workload = oltp_read_only
disk_cache = none, writeback
disk_format = qcow2, raw

[host]
arm = host

[guest]
arm = guest
guests = 2
INI
xml=$VBED_TEST_TMP/xml
expect_rc 0 "$VBED" run --dry-run --xml-dir "$xml" "$VBED_TEST_TMP/matrix.ini"
contains "$out" "4 variants x 2 arms, 5 distinct runs" || fail "expected 4 variants, one shared host run"
n=$(ls "$xml" | wc -l)
[ "$n" -eq 8 ] || fail "expected 8 domain XML files, found $n"

# runs 2..5 are the guest runs, in variant order
i=0
for v in "none qcow2" "none raw" "writeback qcow2" "writeback raw"; do
  set -- $v
  i=$((i + 1)); run=$(printf '%03d' $((i + 1)))
  for g in 1 2; do
    f=$xml/vbed-dryrun-$run-guest-$g.xml
    [ -f "$f" ] || fail "missing $f"
    virt-xml-validate "$f" domain >/dev/null || fail "$f does not validate"
    data=$(grep -B1 -A4 "cache=" "$f" | tr -d '\n')
    contains "$data" "type=\"$2\" cache=\"$1\"" || fail "$f: data disk is not cache=$1 type=$2"
    contains "$(cat "$f")" "<domain type=\"qemu\">" || fail "$f: not a qemu domain"
    contains "$(cat "$f")" "<serial>vbed-data</serial>" || fail "$f: no data disk serial"
    contains "$(cat "$f")" "vbed-dryrun-$run-guest-$g-data.$2" || fail "$f: data volume name"
  done
done

# virt_type forces the domain type whatever libvirt offers
sed -i 's/^guests = 2/guests = 2\nvirt_type = kvm/' "$VBED_TEST_TMP/matrix.ini"
rm -rf "$xml"
expect_rc 0 "$VBED" run --dry-run --xml-dir "$xml" "$VBED_TEST_TMP/matrix.ini"
for f in "$xml"/*.xml; do
  contains "$(cat "$f")" "<domain type=\"kvm\">" || fail "$f: virt_type=kvm ignored"
  contains "$(cat "$f")" "host-passthrough" || fail "$f: kvm without host-passthrough"
done

# every shipped scenario is valid
for s in scenarios/*.ini; do
  "$VBED" run --dry-run "$s" >/dev/null || fail "$s is refused"
done

# where the data fits: the shipped quickstart reaches the disk in every arm;
# a scenario whose data fits in the buffer pool is warned about, naming the
# arm and the sizes
contains "$(LIBVIRT_DEFAULT_URI=test:///default "$VBED" run --dry-run scenarios/quickstart.ini 2>&1)" \
  "tuned        variants 1        none: data 16.0 MiB (estimated) exceeds the buffer pool (8.0 MiB)" ||
  fail "quickstart: the tuned arm's data should exceed its buffer pool and reach the device"
cat > "$VBED_TEST_TMP/small.ini" <<'INI'
[global]
workload = oltp_read_only
tables = 2
table_size = 10000
buffer_pool = 128M

[small]
arm = guest
INI
expect_rc 0 "$VBED" run --dry-run "$VBED_TEST_TMP/small.ini"
contains "$err" "arm [small]: all 1 of its 1 runs: its data (e.g. ~6 MiB estimated) fits in its buffer pool (128 MiB): the disk cache mode cannot matter there" ||
  fail "no warning for data that fits in the buffer pool"
contains "$out" "buffer_pool: data 6.4 MiB (estimated) fits in the buffer pool (128.0 MiB)" ||
  fail "the plan does not say where the data fits"
