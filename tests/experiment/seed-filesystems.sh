# seed-filesystems.sh: the shipped filesystems.ini (seed 001: one workload,
# several filesystems and my.cnf profiles) in miniature: its sizes made
# smaller for TCG -- one table of 40,000 rows (about 9 MiB) against 8 MiB
# pools in both profiles (the shipped 128 MiB and 1 GiB would hold it), one
# thread, 5 s of warm-up, 10 s measured, one repeat, a 768 MiB guest with one
# vCPU and a 512 MiB data disk (xfs needs 300 MiB), and prepare = copy: the
# shipped tables load on this machine for well over prepare = auto's 1 s and
# every guest copies them; these load in 0.4 s, and with auto each guest
# would load them itself (5-8 s under TCG against 3-4 s for the copy) --
# every other key the shipped one's. The shape the seed reports: a table
# per filesystem, each with both profiles. And the profiles are what they
# say on every filesystem: the small one (fsync, doublewrite, the redo log flushed at
# each commit) fsyncs at every commit -- at least once a transaction in
# InnoDB's count and at its disk -- and InnoDB fsyncs at least 0.4 times a
# transaction more than in the heavy one (redo log flushed once a second:
# 0.79-0.85 more here; the heavy profile's flush at each commit would make
# it less), its disk flushed more often too; and it reads nothing from its
# disk (the guest page cache holds the data) where the heavy one (O_DIRECT)
# reads its misses from the disk; nothing is left. (Not "half again the
# heavy one's disk flushes": the filesystem's and page cleaner's flushes
# come about once a second, more a transaction the slower an arm runs, and
# CI's ext4 came out 2.14 against 1.44 with the heavy arm at half the TPS.)
# Its checks are counts a transaction and their signs (fsyncs, flushes and
# reads at each commit), which a test beside it on the other CPUs cannot
# turn: it runs two at a time (tests/run-tests.sh).
# vbed-test: paired 315 (its checks are counts and signs: a neighbour cannot change them)
. "$VBED_SRC/tests/lib.sh"
need_libvirt
need_prog jq

sc=$VBED_TEST_TMP/fs.ini
miniature scenarios/filesystems.ini "$sc" 13 \
  -e 's/^\[global\]$/[global]\npost_probes  = no\nprepare      = copy/' \
  -e 's/^tables *=.*/tables       = 1/' -e 's/^table_size *=.*/table_size   = 40000/' \
  -e 's/^threads *=.*/threads      = 1/' -e 's/^warmup *=.*/warmup       = 5s/' \
  -e 's/^duration *=.*/duration     = 10s/' -e 's/^repeats *=.*/repeats      = 1/' \
  -e 's/^memory *=.*/memory       = 768M/' -e 's/^vcpus *=.*/vcpus        = 1/' \
  -e 's/^disk_size *=.*/disk_size    = 512M/' -e 's/^buffer_pool\( *\)= .*/buffer_pool\1= 8M/'
grep -q '^filesystem *= *ext4, xfs, btrfs' "$sc" || fail "scenarios/filesystems.ini no longer sweeps ext4, xfs and btrfs"

run_json e2efs "$sc"
[ "$(echo "$json" | jq -r '[.variants[].label] | join(" ")')" = "filesystem=ext4 filesystem=xfs filesystem=btrfs" ] ||
  fail "not one table per filesystem: $(echo "$json" | jq -c '[.variants[].label]')"
fig() { report_figure "$json" "filesystem=$1" "$2" "$3"; } # a missing number fails
layer() { echo ".layers.per_layer[] | select(.layer == \"$1\") | .$2"; }
guest() { layer guest "$1"; }
for fs in ext4 xfs btrfs; do
  for arm in small heavy; do
    tps=$(fig $fs $arm '.tps_per_guest.mean') || exit 1
    awk -v t="$tps" 'BEGIN { exit !(t > 0) }' || fail "$fs, $arm: TPS $tps"
  done
  fs_=$(fig $fs small "$(guest flushes_per_tx)") || exit 1
  fh=$(fig $fs heavy "$(guest flushes_per_tx)") || exit 1
  is=$(fig $fs small "$(layer innodb flushes_per_tx)") || exit 1
  ih=$(fig $fs heavy "$(layer innodb flushes_per_tx)") || exit 1
  rs=$(fig $fs small "$(guest reads_per_tx)") || exit 1
  rh=$(fig $fs heavy "$(guest reads_per_tx)") || exit 1
  printf '%-6s small %6.2f TPS, %5.2f fsyncs, %5.2f flushes and %5.2f reads/tx at its disk   heavy %6.2f TPS, %5.2f, %5.2f and %5.2f\n' \
    $fs "$(fig $fs small '.tps_per_guest.mean')" "$is" "$fs_" "$rs" "$(fig $fs heavy '.tps_per_guest.mean')" "$ih" "$fh" "$rh"
  awk -v s="$is" -v d="$fs_" 'BEGIN { exit !(s >= 1 && d >= 1) }' ||
    fail "$fs: the small profile fsynced $is times a transaction and flushed its disk $fs_ times: not at every commit"
  awk -v s="$is" -v h="$ih" -v ds="$fs_" -v dh="$fh" 'BEGIN { exit !(s - h >= 0.4 && ds > dh) }' ||
    fail "$fs: InnoDB fsynced $is times a transaction in the small profile, $ih in the heavy one (at least 0.4 more wanted); its disk flushed $fs_ against $fh"
  awk -v s="$rs" -v h="$rh" 'BEGIN { exit !(s < 0.5 && h > 1) }' ||
    fail "$fs: reads at the disk per transaction: small $rs (its page cache should hold the data), heavy $rh (O_DIRECT misses)"
done
