# clean-stale-pid.sh: `vbed clean` signals a dead session's host arm
# mariadbd only if root's record of it (<arm>/mariadbd.pid: pid and start
# time) still names that process and that process is the arm's mariadbd
# (executable mariadbd, --datadir=<arm dir>/mysql/data). A record naming an
# unrelated process (its start time matches, its executable does not) or a
# process that has ended leaves every process alone; the arm's directory
# goes either way. The mysql user's own mysqld.pid is never read. Uses
# libvirt's test driver, no guests.
. "$VBED_SRC/tests/lib.sh"
need_prog dash
[ -s /etc/machine-id ] || skip "needs /etc/machine-id"

pool=$VBED_TEST_TMP/pool host=$VBED_TEST_TMP/host
export VBED_SESSION_DIR=$VBED_TEST_TMP/sessions
mkdir -p "$pool" "$VBED_SESSION_DIR"
chmod 755 "$VBED_TEST_TMP"
# this machine's session zzdead, ended: its arms may go
printf '{"session":"zzdead","machine":"%s","boot_id":"%s","pid":1,"start_time":0,"ended":true}\n' \
  "$(cat /etc/machine-id)" "$(cat /proc/sys/kernel/random/boot_id)" > "$VBED_SESSION_DIR/zzdead"
start_time() { sed 's/.*) //' "/proc/$1/stat" | cut -d' ' -f20; }
arm() { # N: an arm directory as arm-start leaves it (mark, mysql/data)
  mkdir -p "$host/vbed-zzdead-00$1-host/mysql/data"
  echo "a vbed host arm" > "$host/vbed-zzdead-00$1-host/vbed-hostarm"
}
arm 1; arm 2; arm 3

# an unrelated process that the record of arm 1 names
sleep 300 & bystander=$!
# a stand-in for arm 2's mariadbd: an executable named mariadbd with the
# arm's --datadir (a copy of dash that waits)
cp "$(command -v dash)" "$VBED_TEST_TMP/mariadbd"
"$VBED_TEST_TMP/mariadbd" -c 'sleep 300' mariadbd "--datadir=$host/vbed-zzdead-002-host/mysql/data" &
ours=$!
# arm 3: a record of a process that ended (its pid now another's start time)
sleep 300 & other=$!
trap 'kill $bystander $ours $other 2>/dev/null' EXIT
sleep 0.3
echo "$bystander $(start_time "$bystander")" > "$host/vbed-zzdead-001-host/mariadbd.pid"
echo "$ours $(start_time "$ours")" > "$host/vbed-zzdead-002-host/mariadbd.pid"
echo "$other $(( $(start_time "$other") - 1 ))" > "$host/vbed-zzdead-003-host/mariadbd.pid"
# mysql's own pid file naming the bystander: never read
echo "$other" > "$host/vbed-zzdead-001-host/mysql/mysqld.pid"

expect_rc 0 "$VBED" -c test:///default clean --pool-dir "$pool"
kill -0 "$bystander" 2>/dev/null || fail "clean killed an unrelated process named by a record"
kill -0 "$other" 2>/dev/null || fail "clean killed a process whose start time is not the record's"
contains "$err" "names pid $bystander, but that is 'sleep', not the mariadbd of" || fail "no warning about the stale pid"
contains "$out" "stopped mariadbd $ours of $host/vbed-zzdead-002-host" || fail "the arm's mariadbd was not stopped"
for i in $(seq 1 50); do kill -0 "$ours" 2>/dev/null || break; sleep 0.1; done
kill -0 "$ours" 2>/dev/null && fail "the arm's mariadbd still runs"
for n in 1 2 3; do
  [ ! -e "$host/vbed-zzdead-00$n-host" ] || fail "arm directory $n left"
done
echo "stale pids left alone, the arm's own mariadbd stopped"
