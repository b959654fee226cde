# host-arm.sh: the helper's host arm requests (`vbed host arm-*`, what a
# vbed elsewhere sends over ssh) run directly on this machine, no ssh: a
# real mariadbd started (in a cgroup when the host has one), queried,
# measured, a program run in it and ended, the arm stopped with nothing
# left; and the requests that must touch nothing refused.
. "$VBED_SRC/tests/lib.sh"
need_root
need_prog jq
need_prog mariadbd
need_prog mariadb-install-db
t=$VBED_TEST_TMP
chmod 755 "$t" # mariadbd runs as the mysql user: it must reach its datadir

id=armt$$ # a session id (session_of_name): no '-', at most 12 bytes
name=vbed-$id-h
base=$t/x/host
dir=$base/$name
mkdir -p "$base"

# does this host have a cgroup with memory and cpuset controllers (as
# cgroup_version in orchestrator/hostside/cgroup.c finds it)?
cgroup_usable() {
  local r=/sys/fs/cgroup
  if [ -r "$r/cgroup.controllers" ]; then
    grep -qw memory "$r/cgroup.controllers" && grep -qw cpuset "$r/cgroup.controllers"
  else
    [ -e "$r/memory/memory.limit_in_bytes" ] && [ -e "$r/cpuset/cpuset.cpus" ]
  fi
}
cgroup_dirs() { ls -d /sys/fs/cgroup/"$name" /sys/fs/cgroup/*/"$name" 2>/dev/null; }

# is PID a live (not zombie) process named COMM?
running_as() { # PID COMM
  [ -r "/proc/$1/stat" ] || return 1
  [ "$(cat "/proc/$1/comm" 2>/dev/null)" = "$2" ] || return 1
  [ "$(sed 's/.*) //' "/proc/$1/stat" | cut -d' ' -f1)" != Z ]
}

# whatever this test started goes, even when it fails half-way, and even
# when arm-stop is what fails
mpid= bg= spid=
cleanup() {
  [ -n "$bg" ] && kill "$bg" 2>/dev/null
  "$VBED" host arm-stop -- "$dir" >/dev/null 2>&1
  [ -n "$spid" ] && running_as "$spid" sleep && kill -9 "$spid"
  [ -n "$mpid" ] && running_as "$mpid" mariadbd && kill -9 "$mpid"
  local i
  for i in $(seq 1 50); do
    { [ -n "$mpid" ] && running_as "$mpid" mariadbd; } || break
    sleep 0.1
  done
  local d
  for d in $(cgroup_dirs); do rmdir "$d"; done
  return 0
}
trap cleanup EXIT

confine=()
if cgroup_usable; then
  confine=(--confine 1 805306368)
else
  skip "no cgroup with memory and cpuset controllers under /sys/fs/cgroup (scripts/start-daemons.sh mounts them): --confine cannot be tested"
fi

# ---- arm-start ----
mycnf=$'[mysqld]\ninnodb_buffer_pool_size=32M\n'
lua=$'-- the workload script, any text: \'quotes\' $(not run) "and" \\ backslashes\nreturn 1'
expect_rc 0 "$VBED" host arm-start --timeout 60 --mycnf "$mycnf" --lua "$lua" "${confine[@]}" -- "$dir"
printf '%s' "$out" | jq -e --arg d "$dir" '.vbed_host == 1 and .dir == $d and .datadir == $d + "/mysql/data" and
    .socket == $d + "/mysql/mysqld.sock" and .errlog == $d + "/mysql/mysqld.err" and .lua == $d + "/vbed_oltp.lua" and
    (.pid | type == "number") and .online_cpus >= 1' >/dev/null || fail "arm-start reply: $out"
mpid=$(printf '%s' "$out" | jq -r .pid)
running_as "$mpid" mariadbd || fail "pid $mpid of the reply is not a running mariadbd"
tr '\0' '\n' < "/proc/$mpid/cmdline" | grep -qxF -- "--datadir=$dir/mysql/data" ||
  fail "mariadbd $mpid does not run on $dir/mysql/data: $(tr '\0' ' ' < "/proc/$mpid/cmdline")"
if [ ${#confine[@]} -gt 0 ]; then
  printf '%s' "$out" | jq -e '.confined == true and .cpus == "0"' >/dev/null ||
    fail "arm-start --confine 1: not confined to CPU 0: $out"
  contains "$(cat "/proc/$mpid/cgroup")" ":/$name" || fail "mariadbd is not in the arm's cgroup"
  grep -qx 'Cpus_allowed_list:[[:space:]]*0' "/proc/$mpid/status" || fail "mariadbd may run on other CPUs than 0"
else
  printf '%s' "$out" | jq -e '.confined == false and .cpus == ""' >/dev/null ||
    fail "arm-start without --confine claims a confinement: $out"
fi
printf '%s' "$lua" | cmp -s - "$dir/vbed_oltp.lua" || fail "the lua file does not hold the text given"
[ -e "$dir/vbed-hostarm" ] || fail "the arm directory has no mark"

# ---- arm-sql ----
expect_rc 0 "$VBED" host arm-sql -- "$dir" 'SELECT 1+1'
[ "$(printf '%s' "$out" | jq -c .rows)" = '[["2"]]' ] || fail "SELECT 1+1: $out"
expect_rc 0 "$VBED" host arm-sql -- "$dir" 'SELECT @@innodb_buffer_pool_size'
[ "$(printf '%s' "$out" | jq -c .rows)" = '[["33554432"]]' ] || fail "the server does not run with the --mycnf given: $out"
expect_rc 0 "$VBED" host arm-sql -- "$dir" "SELECT 'a\tb', NULL, 'x\ny'"
[ "$(printf '%s' "$out" | jq -c .rows)" = '[["a\tb","NULL","x\ny"]]' ] || fail "tab, NULL, newline: $out"
expect_rc 1 "$VBED" host arm-sql -- "$dir" 'SELEC nonsense'
[ -z "$out" ] || fail "a failed statement printed a reply: $out"
contains "$err" "SELEC nonsense" || fail "the failed statement is not named"

# ---- a server that stops answering: SIGINT ends the wait within a second ----
# the mysql user may SIGSTOP its server: vbed (root) waits on it only while
# nothing interrupts it -- at connect time, and in the middle of a statement
sigint_within() { # SECONDS CMD...: CMD interrupted 1 s in ends within SECONDS after
  local lim=$1; shift
  "$@" >"$t/int.out" 2>&1 &
  local p=$! i
  sleep 1
  kill -INT $p
  local t0=$(date +%s%N)
  for i in $(seq 1 $((lim * 20))); do kill -0 $p 2>/dev/null || break; sleep 0.05; done
  if kill -0 $p 2>/dev/null; then kill -9 $p; kill -CONT "$mpid"; fail "'$*' still waited $lim s after SIGINT"; fi
  wait $p
  echo "'$*' ended $(( ($(date +%s%N) - t0) / 1000000 )) ms after SIGINT"
}
kill -STOP "$mpid"
sigint_within 1 "$VBED" host arm-sql -- "$dir" 'SELECT 1'
kill -CONT "$mpid"
( sleep 0.5; kill -STOP "$mpid" ) &
sigint_within 1 "$VBED" host arm-sql -- "$dir" 'SELECT SLEEP(20)'
contains "$(cat "$t/int.out")" "given up: 'SELECT SLEEP(20)': interrupted" || fail "the abandoned statement is not named: $(cat "$t/int.out")"
kill -CONT "$mpid"
expect_rc 0 "$VBED" host arm-sql -- "$dir" 'SELECT 2'
[ "$(printf '%s' "$out" | jq -c .rows)" = '[["2"]]' ] || fail "the server does not answer again after SIGCONT: $out"

# ---- arm-exec ----
expect_rc 7 "$VBED" host arm-exec --env FOO=bar --env B_2=x=y -- "$dir" sh -c 'echo "FOO=$FOO B_2=$B_2"; exit 7'
[ "$out" = "FOO=bar B_2=x=y" ] || fail "arm-exec: the program's stdout or env did not arrive: '$out'"
expect_rc 0 "$VBED" host arm-exec -- "$dir" cat /proc/self/cgroup
if [ ${#confine[@]} -gt 0 ]; then
  contains "$out" ":/$name" || fail "arm-exec's program does not run in the arm's cgroup"
fi
for e in foo=bar 1ABC=x =x NOEQUALS A-B=x; do
  expect_rc 2 "$VBED" host arm-exec --env "$e" -- "$dir" touch "$t/ran"
  contains "$err" "invalid option '--env'" || fail "--env $e: not refused as an invalid option"
done
[ ! -e "$t/ran" ] || fail "a program ran despite an invalid --env"

# ---- arm-status ----
expect_rc 0 "$VBED" host arm-status -- "$dir"
printf '%s' "$out" | jq -e '.vbed_host == 1 and .server_cpu_us > 0 and (.programs_cpu_us | type == "number") and
    (.read_bytes | type == "number") and (.write_bytes | type == "number")' >/dev/null || fail "arm-status reply: $out"
cpu1=$(printf '%s' "$out" | jq .programs_cpu_us)
expect_rc 0 "$VBED" host arm-exec -- "$dir" sh -c 'i=0; while [ $i -lt 100000 ]; do i=$((i + 1)); done'
expect_rc 0 "$VBED" host arm-status -- "$dir"
cpu2=$(printf '%s' "$out" | jq .programs_cpu_us)
[ "$cpu2" -gt "$cpu1" ] || fail "programs_cpu_us did not grow after a busy program: $cpu1 then $cpu2"
# the arm's tables in the page cache, once there are tables
expect_rc 0 "$VBED" host arm-sql -- "$dir" 'CREATE DATABASE sbtest' 'CREATE TABLE sbtest.sbtest1 (id INT PRIMARY KEY)'
expect_rc 0 "$VBED" host arm-status -- "$dir"
printf '%s' "$out" | jq -e '.resident_bytes >= 0' >/dev/null || fail "no resident_bytes with a table: $out"
res0=$(printf '%s' "$out" | jq .resident_bytes)
# the walk measures: the table's file read through the page cache is resident
ibd=$dir/mysql/data/sbtest/sbtest1.ibd
cat "$ibd" > /dev/null
expect_rc 0 "$VBED" host arm-status -- "$dir"
[ "$(printf '%s' "$out" | jq .resident_bytes)" -ge "$(stat -c %s "$ibd")" ] ||
  fail "sbtest1.ibd ($(stat -c %s "$ibd") bytes, just read) is not counted resident: $out"
res0=$(printf '%s' "$out" | jq .resident_bytes)
# the mysql user's sparse "tables" of 16 TiB each cost what their data costs
# (c78420e: 36 s of root's CPU for one, SIGINT ignored): a few ms, and the
# residency they add is their data's (none)
for k in $(seq 901 940); do runuser -u mysql -- truncate -s 16T "$dir/mysql/data/sbtest/sbtest$k.ibd"; done
start=$(date +%s%N)
expect_rc 0 "$VBED" host arm-status -- "$dir"
ms=$(( ($(date +%s%N) - start) / 1000000 ))
echo "arm-status over 40 sparse files of 16 TiB: $ms ms"
[ "$ms" -lt 3000 ] || fail "arm-status took $ms ms over sparse files"
[ "$(printf '%s' "$out" | jq .resident_bytes)" -le $((res0 + 40 * 65536)) ] ||
  fail "the sparse files count as resident: $out (before: $res0)"
rm -f "$dir"/mysql/data/sbtest/sbtest9[0-4]?.ibd

# ---- arm-file ----
expect_rc 0 "$VBED" host arm-file -- "$dir" mysqld.err
printf '%s' "$out" | jq -re .text | grep -q 'ready for connections' || fail "mysqld.err: $out"
for f in /etc/passwd ../x mysqld.err/../../x vbed-hostarm; do
  expect_rc 2 "$VBED" host arm-file -- "$dir" "$f"
  [ -z "$out" ] || fail "arm-file $f printed a reply: $out"
done

# ---- arm-list ----
expect_rc 0 "$VBED" host arm-list -- "$base"
printf '%s' "$out" | jq -e --arg n "$name" '.arms == [$n]' >/dev/null || fail "arm-list: $out"

# ---- arm-stop, with a program still running in the arm ----
"$VBED" host arm-exec -- "$dir" sleep 300 > "$t/sleep.out" 2>&1 &
bg=$!
for i in $(seq 1 100); do
  [ -s "$dir/program.pid" ] && break
  sleep 0.1
done
spid=$(cut -d' ' -f1 "$dir/program.pid" 2>/dev/null)
[ -n "$spid" ] && running_as "$spid" sleep || fail "arm-exec did not record its program (program.pid: $spid)"
expect_rc 0 "$VBED" host arm-stop -- "$dir"
printf '%s' "$out" | jq -e '.stopped == true' >/dev/null || fail "arm-stop reply: $out"
for i in $(seq 1 100); do
  kill -0 "$bg" 2>/dev/null || break
  sleep 0.1
done
kill -0 "$bg" 2>/dev/null && fail "the arm-exec running sleep 300 still runs after arm-stop"
wait "$bg" && fail "the arm-exec whose program arm-stop ended exited 0: $(cat "$t/sleep.out")"
bg=
! running_as "$spid" sleep || fail "the program $spid still runs after arm-stop"
! running_as "$mpid" mariadbd || fail "mariadbd $mpid still runs after arm-stop"
[ ! -e "$dir" ] || fail "$dir is still there after arm-stop"
[ -z "$(cgroup_dirs)" ] || fail "the arm's cgroup is still there: $(cgroup_dirs)"
expect_rc 0 "$VBED" host arm-stop -- "$dir"
printf '%s' "$out" | jq -e '.stopped == false' >/dev/null || fail "a second arm-stop: $out"

# ---- refusals that must remove nothing ----
# the right shape but no mark: not an arm
plain=$base/vbed-$id-plain
mkdir "$plain" && echo keep > "$plain/keep"
expect_rc 1 "$VBED" host arm-stop -- "$plain"
contains "$err" "has no vbed-hostarm" || fail "arm-stop without the mark: $err"
expect_rc 125 "$VBED" host arm-exec -- "$plain" touch "$t/ran"
[ ! -e "$t/ran" ] || fail "arm-exec ran a program in a directory without the mark"
[ -f "$plain/keep" ] || fail "arm-stop removed a directory without the mark"
# arm-shaped directories (mark and all) reached by a path a request must not
# take: only the path check stands between them and removal
decoy=$t/y/host/vbed-$id-decoy other=$t/y/other/vbed-$id-decoy
for d in "$decoy" "$other"; do
  mkdir -p "$d" && echo keep > "$d/keep" && touch "$d/vbed-hostarm"
done
for p in / "$t/y/host/../host/vbed-$id-decoy" "$t/y/other/../host/vbed-$id-decoy" "$t/y/host/./vbed-$id-decoy" \
  "$t/y//host/vbed-$id-decoy" "$decoy/." "$other" "${decoy#/}"; do
  expect_rc 2 "$VBED" host arm-stop -- "$p"
  contains "$err" "is not a host arm directory" || fail "arm-stop $p: $err"
  [ -z "$out" ] || fail "a refused arm-stop $p printed a reply: $out"
done
[ -f "$decoy/keep" ] && [ -f "$other/keep" ] || fail "a refused arm-stop removed something"
[ -d / ] && [ -f "$VBED" ] || fail "arm-stop / removed something"
exit 0
