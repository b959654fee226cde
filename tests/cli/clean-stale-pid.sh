# clean-stale-pid.sh: `vbed clean` signals a dead session's host arm
# mariadbd only if the pid in its mysqld.pid is that mariadbd (executable
# mariadbd, --datadir=<arm dir>/data). A stale pid file naming an unrelated
# process (after a reboot the pid is reused) leaves that process alone; the
# arm's directory goes either way. Uses libvirt's test driver, no guests.
. "$VBED_SRC/tests/lib.sh"
need_prog dash

pool=$VBED_TEST_TMP/pool host=$VBED_TEST_TMP/host
export VBED_SESSION_DIR=$VBED_TEST_TMP/sessions   # no record: dirs from before records
mkdir -p "$pool" "$host/vbed-zzdead-001-host/data" "$host/vbed-zzdead-002-host/data"

# an unrelated process whose pid a stale mysqld.pid names
sleep 300 & bystander=$!
echo "$bystander" >"$host/vbed-zzdead-001-host/mysqld.pid"
# a stand-in for the arm's mariadbd: an executable named mariadbd with the
# arm's --datadir (a copy of dash that waits)
cp "$(command -v dash)" "$VBED_TEST_TMP/mariadbd"
"$VBED_TEST_TMP/mariadbd" -c 'sleep 300' mariadbd "--datadir=$host/vbed-zzdead-002-host/data" &
ours=$!
echo "$ours" >"$host/vbed-zzdead-002-host/mysqld.pid"
trap 'kill $bystander $ours 2>/dev/null' EXIT
sleep 0.3

expect_rc 0 "$VBED" -c test:///default clean --pool-dir "$pool"
kill -0 "$bystander" 2>/dev/null || fail "clean killed an unrelated process named by a stale pid file"
contains "$err" "names pid $bystander, but that is 'sleep', not the mariadbd of" || fail "no warning about the stale pid"
contains "$out" "stopped mariadbd $ours of $host/vbed-zzdead-002-host" || fail "the arm's mariadbd was not stopped"
for i in $(seq 1 50); do kill -0 "$ours" 2>/dev/null || break; sleep 0.1; done
kill -0 "$ours" 2>/dev/null && fail "the arm's mariadbd still runs"
[ ! -e "$host/vbed-zzdead-001-host" ] && [ ! -e "$host/vbed-zzdead-002-host" ] || fail "arm directories left"
echo "stale pid left alone, the arm's own mariadbd stopped"
