# setup-layouts.sh: the guest's vbed-setup for every data-disk layout, run
# here under dash with its paths under a scratch root (VBED_SETUP_ROOT) and
# the disk tools stubbed: for each layout it must call mdadm, LVM or
# mkfs.btrfs with every disk in order and the layout's level, wait for an md
# array's resync and record its length (not with ASSUME_CLEAN, never for
# RAID 0), make the filesystem on the device the layout yields, mount it on
# the datadir or on IO_DIR, and end with status "ready"; a failing tool, a
# resync past its limit and a btrfs layout on ext4 end with "failed: ..."
# naming why. The end-to-end test (tests/experiment/disk-layouts.sh) boots
# one layout per family; this covers the rest of the matrix.
. "$VBED_SRC/tests/lib.sh"
need_prog dash
need_prog tar

setup=$VBED_SRC/guest-images/debian-mariadb/files/usr/local/sbin/vbed-setup
bin=$VBED_TEST_TMP/bin
mkdir -p "$bin"
# every stubbed tool logs its argv (one line) and exits 0, or 1 if named in $STUB_FAIL
for t in mdadm pvcreate vgcreate lvcreate mkfs.ext4 mkfs.xfs mkfs.btrfs btrfs mount hostname chown \
  mariadb-install-db sleep; do
  cat > "$bin/$t" <<'EOF'
#!/bin/sh
echo "$(basename "$0") $*" >> "$STUB_LOG"
case " ${STUB_FAIL:-} " in *" $(basename "$0") "*) echo "stub: failing on purpose" >&2; exit 1 ;; esac
exit 0
EOF
  chmod +x "$bin/$t"
done
# journalctl prints the agent's start once $VBED_SETUP_ROOT/agent-started
# exists (a held guest waits for that line before its sync), and logs its call
cat > "$bin/journalctl" <<'EOF'
#!/bin/sh
echo "journalctl $*" >> "$STUB_LOG"
[ ! -e "$VBED_SETUP_ROOT/agent-started" ] || echo "Started qemu-guest-agent.service - QEMU Guest Agent."
EOF
chmod +x "$bin/journalctl"
# sync logs the status vbed-setup had written when it was called
cat > "$bin/sync" <<'EOF'
#!/bin/sh
echo "sync (status then: $(cat "$VBED_SETUP_ROOT/run/vbed/status" 2>/dev/null || echo none))" >> "$STUB_LOG"
EOF
chmod +x "$bin/sync"

# run_setup NAME ENV-LINES [SYNC_ACTION]: a fresh root with the configuration
# disk (run.env + my.cnf, as configdisk.c writes it), DATA_DISKS data disks
# and md's sysfs/mdstat, then vbed-setup; sets $root, $calls, $status
run_setup() {
  local name=$1 env=$2 sync=${3:-idle}
  root=$VBED_TEST_TMP/$name
  mkdir -p "$root/cfg" "$root/dev/disk/by-id" "$root/etc/mysql" "$root/sys/block/md0/md" "$root/proc"
  echo "root=/dev/disk/by-id/virtio-vbed-root rw quiet" > "$root/proc/cmdline"
  printf '%s\n' "$env" > "$root/cfg/run.env"
  printf '[mariadbd]\ninnodb_buffer_pool_size = 64M\n' > "$root/cfg/my.cnf"
  tar -cf "$root/dev/disk/by-id/virtio-vbed-config" -C "$root/cfg" run.env my.cnf
  local n; n=$(printf '%s\n' "$env" | sed -n 's/^DATA_DISKS=//p'); n=${n:-1}
  : > "$root/dev/disk/by-id/virtio-vbed-data"
  for k in $(seq 2 "$n"); do : > "$root/dev/disk/by-id/virtio-vbed-data-$k"; done
  echo "$sync" > "$root/sys/block/md0/md/sync_action"
  if [ "$sync" = idle ]; then echo "md0 : active raid5" > "$root/proc/mdstat"
  else echo "md0 : active raid5 [resync = 1.0%]" > "$root/proc/mdstat"; fi
  calls=$root/calls
  : > "$calls"
  STUB_LOG=$calls PATH="$bin:$PATH" VBED_SETUP_ROOT=$root timeout 60 dash "$setup" > "$root/out" 2>&1
  status=$(cat "$root/run/vbed/status" 2>/dev/null)
}

# hold_start: the root run_setup made, booted to be saved (vbed.hold) with
# its configuration disk not yet plugged in: vbed-setup in the background
# ($held; $extra_path, if set, goes first in its PATH) until it says "hold"
# (hold_wait; --no-wait: return at once);
# hold_release plugs the disk in, waits for it and sets $status
hold_start() { # [--no-wait]
  mv "$root/dev/disk/by-id/virtio-vbed-config" "$root/cfg.tar"
  echo "root=/dev/disk/by-id/virtio-vbed-root rw quiet vbed.hold" > "$root/proc/cmdline"
  : > "$calls"
  STUB_LOG=$calls PATH="${extra_path:-}$bin:$PATH" VBED_SETUP_ROOT=$root timeout 60 dash "$setup" > "$root/out" 2>&1 &
  held=$!
  [ "${1:-}" = --no-wait ] || hold_wait ""
}
hold_wait() { # WHEN: fails unless vbed-setup says "hold" within 5 s (WHEN ends the message)
  for _ in $(seq 1 50); do [ "$(cat "$root/run/vbed/status" 2>/dev/null)" = hold ] && break; /bin/sleep 0.1; done
  [ "$(cat "$root/run/vbed/status")" = hold ] ||
    { if [ -z "$1" ]; then kill "$held" 2>/dev/null; wait "$held" 2>/dev/null; else hold_release; fi
      fail "$case: status '$(cat "$root/run/vbed/status")'$1, expected hold"; }
}
hold_release() {
  mv "$root/cfg.tar" "$root/dev/disk/by-id/virtio-vbed-config"
  wait $held
  status=$(cat "$root/run/vbed/status")
}

# seeded_root: a root for $case with the seed the image brings (made at
# build: no datadir yet) and no agent's start in its journal yet
seeded_root() {
  run_setup "$case" "FILESYSTEM=ext4
HOSTNAME=h"
  rm -rf "$root/var/lib/mysql" "$root/run/vbed/status"
  mkdir -p "$root/var/lib/vbed-seed" && echo "table" > "$root/var/lib/vbed-seed/ibdata1" &&
    : > "$root/var/lib/vbed-seed/.complete"
  rm -f "$root/agent-started"
}

# called TOOL-LINE: the stubs were called with exactly this line ($root for R)
called() {
  grep -qxF -- "$1" "$calls" && return 0
  echo "calls:" >&2; cat "$calls" >&2; cat "$root/out" >&2
  fail "$case: expected the call '$1'"
}
not_called() {
  grep -q -- "^$1" "$calls" || return 0
  cat "$calls" >&2
  fail "$case: '$1' was called"
}
ready() { [ "$status" = ready ] || { cat "$root/out" >&2; fail "$case: status '$status', expected ready"; }; }

disks_of() { # N: the data disks in order, as vbed-setup names them
  local d=$root/dev/disk/by-id/virtio-vbed-data k s=$root/dev/disk/by-id/virtio-vbed-data
  for k in $(seq 2 "$1"); do s="$s $d-$k"; done
  echo "$s"
}
layout_env() { # FS LAYOUT N [ASSUME_CLEAN] [IO_DIR]
  printf 'FILESYSTEM=%s\nHOSTNAME=vbed-t-001-a-1\nTMPFS_SIZE=536870912\nDATA_DISKS=%s\nLAYOUT=%s\nASSUME_CLEAN=%s\nRESYNC_TIMEOUT=3600\nIO_DIR=%s' \
    "$1" "$3" "$2" "${4:-no}" "${5:-}"
}

# one disk, the datadir on it: ext4 without lazy init, xfs, btrfs
for fs in ext4 xfs btrfs; do
  case=single-$fs
  run_setup "$case" "FILESYSTEM=$fs
HOSTNAME=vbed-t-001-guest-1
TMPFS_SIZE=536870912"
  ready
  d=$root/dev/disk/by-id/virtio-vbed-data
  case $fs in
    ext4) called "mkfs.ext4 -q -F -L vbed-data -E lazy_itable_init=0,lazy_journal_init=0 $d" ;;
    xfs) called "mkfs.xfs -q -f -L vbed-data $d" ;;
    btrfs) called "mkfs.btrfs -q -f -L vbed-data $d" ;;
  esac
  called "mount -t $fs -o noatime $d $root/var/lib/mysql"
  called "hostname vbed-t-001-guest-1"
  called "mariadb-install-db --user=mysql --datadir=$root/var/lib/mysql --skip-test-db --skip-name-resolve"
  not_called mdadm
  [ "$(cat "$root/etc/hostname")" = vbed-t-001-guest-1 ] || fail "$case: /etc/hostname"
  cmp -s "$root/cfg/my.cnf" "$root/etc/mysql/my.cnf" || fail "$case: my.cnf was not installed whole"
done

# tmpfs: no disk at all
case=tmpfs
run_setup "$case" "FILESYSTEM=tmpfs
HOSTNAME=h
TMPFS_SIZE=268435456"
ready
called "mount -t tmpfs -o size=268435456,mode=0750 tmpfs $root/var/lib/mysql"
not_called mkfs

# md RAID at each level with its minimum disks (disklayout.c): the array over
# every disk in order, the resync waited for and recorded except for RAID 0
for l in 0:2 1:2 10:4 5:3 6:4; do
  level=${l%%:*} n=${l#*:}
  case=md-raid$level
  run_setup "$case" "$(layout_env ext4 "md-raid$level" "$n")"
  ready
  called "mdadm --create $root/dev/md0 --run --quiet --metadata=1.2 --level=$level --raid-devices=$n $(disks_of "$n")"
  called "mdadm --readwrite $root/dev/md0"
  called "mkfs.ext4 -q -F -L vbed-data -E lazy_itable_init=0,lazy_journal_init=0 $root/dev/md0"
  called "mount -t ext4 -o noatime $root/dev/md0 $root/var/lib/mysql"
  if [ "$level" = 0 ]; then
    [ ! -e "$root/run/vbed/md_resync_s" ] || fail "$case: a resync recorded for RAID 0"
  else
    awk '{ exit !($1 ~ /^[0-9]+\.[0-9]+$/ && $1 >= 0) }' "$root/run/vbed/md_resync_s" 2>/dev/null ||
      fail "$case: md_resync_s is '$(cat "$root/run/vbed/md_resync_s" 2>/dev/null)'"
  fi
done

# ASSUME_CLEAN: --assume-clean, no resync wait
case=md-raid5-clean
run_setup "$case" "$(layout_env xfs md-raid5 3 yes)"
ready
called "mdadm --create $root/dev/md0 --run --quiet --metadata=1.2 --level=5 --raid-devices=3 --assume-clean $(disks_of 3)"
called "mkfs.xfs -q -f -L vbed-data $root/dev/md0"
[ ! -e "$root/run/vbed/md_resync_s" ] || fail "$case: a resync recorded although the array was assumed clean"
# ... which RAID 0 (no redundancy) never gets
case=md-raid0-clean
run_setup "$case" "$(layout_env ext4 md-raid0 2 yes)"
ready
called "mdadm --create $root/dev/md0 --run --quiet --metadata=1.2 --level=0 --raid-devices=2 $(disks_of 2)"

# a resync that does not end within RESYNC_TIMEOUT fails, naming the limit
case=md-raid6-timeout
run_setup "$case" "$(layout_env ext4 md-raid6 4 | sed 's/^RESYNC_TIMEOUT=.*/RESYNC_TIMEOUT=0/')" resync
case $status in "failed: md resync not done within 0s (timeout_resync)"*) ;;
  *) fail "$case: status '$status'" ;; esac
not_called mkfs

# LVM: one LV striped over every disk
for n in 2 4; do
  case=lvm-stripe-$n
  run_setup "$case" "$(layout_env ext4 lvm-stripe "$n")"
  ready
  called "pvcreate -q -y $(disks_of "$n")"
  called "vgcreate -q vbed $(disks_of "$n")"
  called "lvcreate -q -y -n data -i $n -l 100%FREE vbed"
  called "mkfs.ext4 -q -F -L vbed-data -E lazy_itable_init=0,lazy_journal_init=0 $root/dev/vbed/data"
  called "mount -t ext4 -o noatime $root/dev/vbed/data $root/var/lib/mysql"
  not_called mdadm
done

# btrfs RAID: one filesystem over every disk, data and metadata at the level
for l in 0:2 1:2 10:4 5:2 6:3; do
  level=${l%%:*} n=${l#*:}
  case=btrfs-raid$level
  run_setup "$case" "$(layout_env btrfs "btrfs-raid$level" "$n")"
  ready
  called "mkfs.btrfs -q -f -L vbed-data -d raid$level -m raid$level $(disks_of "$n")"
  called "btrfs device scan"
  called "mount -t btrfs -o noatime $root/dev/disk/by-id/virtio-vbed-data $root/var/lib/mysql"
  not_called mdadm
done

# a raw I/O workload: the filesystem on IO_DIR, the datadir stays on the root disk
case=io-dir
run_setup "$case" "$(layout_env ext4 md-raid0 2 no /srv/vbed-io)"
ready
called "mount -t ext4 -o noatime $root/dev/md0 $root/srv/vbed-io"
[ -d "$root/srv/vbed-io" ] || fail "$case: IO_DIR was not made"

# failures say why
case=btrfs-on-ext4
run_setup "$case" "$(layout_env ext4 btrfs-raid1 2)"
[ "$status" = "failed: layout btrfs-raid1 needs filesystem btrfs" ] || fail "$case: status '$status'"
case=mdadm-fails
STUB_FAIL=mdadm run_setup "$case" "$(layout_env ext4 md-raid1 2)"
case $status in "failed: mdadm --create failed (see $root/run/vbed/mdadm.log)") ;;
  *) fail "$case: status '$status'" ;; esac
case=lvm-fails
STUB_FAIL=vgcreate run_setup "$case" "$(layout_env ext4 lvm-stripe 2)"
case $status in "failed: lvm failed"*) ;; *) fail "$case: status '$status'" ;; esac
case=missing-disk
run_setup "$case" "$(layout_env ext4 md-raid5 3)"
rm -f "$root/dev/disk/by-id/virtio-vbed-data-3"
STUB_LOG=$calls PATH="$bin:$PATH" VBED_SETUP_ROOT=$root timeout 60 dash "$setup" > "$root/out" 2>&1
status=$(cat "$root/run/vbed/status")
[ "$status" = "failed: no data disk ($root/dev/disk/by-id/virtio-vbed-data-3)" ] || fail "$case: status '$status'"
case=unknown-layout
run_setup "$case" "$(layout_env ext4 zfs-raidz 2)"
[ "$status" = "failed: unknown layout 'zfs-raidz'" ] || fail "$case: status '$status'"
case=install-db-fails
STUB_FAIL=mariadb-install-db run_setup "$case" "FILESYSTEM=ext4
HOSTNAME=h"
case $status in "failed: mariadb-install-db failed"*) ;; *) fail "$case: status '$status'" ;; esac
# held for a save (vbed.hold): status "hold" until the configuration disk
# appears, then on as any guest
case=hold
run_setup "$case" "FILESYSTEM=ext4
HOSTNAME=h"
: > "$root/agent-started"
hold_start
not_called mkfs
# before holding it made the seed datadir, with a small redo log
called "mariadb-install-db --defaults-file=$root/run/vbed/seed.cnf --user=mysql --datadir=$root/var/lib/vbed-seed --skip-test-db --skip-name-resolve"
grep -q "innodb_log_file_size = 8M" "$root/run/vbed/seed.cnf" || fail "$case: the seed's my.cnf"
[ -e "$root/var/lib/vbed-seed/.complete" ] || fail "$case: the seed is not marked complete"
echo "table" > "$root/var/lib/vbed-seed/ibdata1" # what the stub did not make
hold_release
ready
called "mkfs.ext4 -q -F -L vbed-data -E lazy_itable_init=0,lazy_journal_init=0 $root/dev/disk/by-id/virtio-vbed-data"
# restored, it copies the seed instead of initialising the datadir again
[ "$(grep -c "^mariadb-install-db" "$calls")" -eq 1 ] || fail "$case: the datadir was initialised again"
[ "$(cat "$root/var/lib/mysql/ibdata1")" = table ] || fail "$case: the seed was not copied into the datadir"
[ ! -e "$root/var/lib/mysql/.complete" ] || fail "$case: the seed's mark was copied too"
# held with the seed the image brought (made at build): no
# mariadb-install-db, and one sync before "hold" -- what the boot wrote
# (its journal) is on the root disk before the guest is saved, not only in
# its memory (a restored run destroyed early lost the boot's journal) --
# and that sync only once the journal holds the agent's start (it asks
# again, sleeping between, while it does not)
case=hold-seeded
seeded_root
hold_start --no-wait
# it waits for the agent's line: asked, slept, asked again; no sync yet
for _ in $(seq 1 50); do [ "$(grep -c '^journalctl ' "$calls")" -ge 2 ] && break; sleep 0.1; done
[ "$(grep -c '^journalctl -b -q -o cat -u qemu-guest-agent.service$' "$calls")" -ge 2 ] ||
  { hold_release; fail "$case: it did not ask the journal for the agent's start again while it was missing"; }
! grep -q '^sync' "$calls" || { hold_release; fail "$case: it synced before the journal held the agent's start"; }
: > "$root/agent-started"
hold_wait " once the agent's start was logged"
# what it called but the journal's questions and the (stubbed) sleeps
before=$(sed -e '/^sleep /d' -e '/^journalctl /d' "$calls" | tr '\n' ';')
[ "$before" = "sync (status then: none);" ] ||
  { hold_release; fail "$case: before holding it called '$before', not exactly one sync before 'hold'"; }
hold_release
ready
not_called mariadb-install-db
[ "$(cat "$root/var/lib/mysql/ibdata1")" = table ] || fail "$case: the seed was not copied into the datadir"
# and that wait has its bound: a journal that never shows the agent's start
# holds the guest once 60 s have passed, synced -- never waits forever, nor
# gives up sooner. Its clock (a date stub) moves 25 s at each reading: the
# deadline is read at 0 s, then the journal is asked at 25, 50 and 75 s,
# and the third answer must be the last
case=hold-agent-never
seeded_root
clock=$VBED_TEST_TMP/clock
mkdir -p "$clock"
cat > "$clock/date" <<'EOF'
#!/bin/sh
n=$(cat "$VBED_SETUP_ROOT/clock-readings" 2>/dev/null || echo 0)
echo $((n + 1)) > "$VBED_SETUP_ROOT/clock-readings"
echo "date $*" >> "$STUB_LOG"
echo $((1000000 + 25 * n))
EOF
chmod +x "$clock/date"
extra_path=$clock: hold_start
asked=$(grep -c '^journalctl -b -q -o cat -u qemu-guest-agent.service$' "$calls")
[ "$asked" -eq 3 ] ||
  { hold_release; fail "$case: it asked the journal $asked times, not 3 (at 25, 50 and 75 s of its clock: the wait ends once 60 s have passed)"; }
before=$(sed -e '/^sleep /d' -e '/^journalctl /d' -e '/^date /d' "$calls" | tr '\n' ';')
[ "$before" = "sync (status then: none);" ] ||
  { hold_release; fail "$case: before holding it called '$before', not exactly one sync before 'hold'"; }
hold_release
ready
echo "every layout's setup as expected"
