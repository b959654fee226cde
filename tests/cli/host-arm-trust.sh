# host-arm-trust.sh: the host arm's trust boundary (issue 18): root -- the
# `vbed host arm-*` helper, and vbed on the other end of its ssh -- never
# acts on what the mysql user can write, and never trusts a reply's size or
# paths. Each defect of issue 18 is planted as the mysql user (runuser -u
# mysql) in a real arm, or sent as a hostile helper reply (a fake ssh in
# PATH that runs the helper on this machine, then misbehaves), and the test
# checks that root touched nothing outside the arm's own files, signalled
# nothing it did not start (the kill(-1) case in a private pid namespace),
# returned within its time limit and kept its memory bounded.
#
# Every check runs even when an earlier one failed, so that one run against
# an older vbed lists every defect it still has.
. "$VBED_SRC/tests/lib.sh"
need_root
for p in jq mariadbd mariadb-install-db runuser unshare setsid timeout; do need_prog "$p"; done
[ -x /usr/bin/time ] || skip "needs GNU time as /usr/bin/time (package time)"
id mysql >/dev/null 2>&1 || skip "needs the mysql user (make deps)"
t=$VBED_TEST_TMP
chmod 755 "$t" # mariadbd runs as mysql: it must reach its datadir
export VBED_SESSION_DIR=$t/sessions # no session of this machine is recorded
mkdir -p "$VBED_SESSION_DIR"

id=tr$$ # a session id (session_of_name): no '-', at most 12 bytes
base=$t/x/host
mkdir -p "$base" "$t/x/pool"
mycnf=$'[mysqld]\ninnodb_buffer_pool_size=16M\n'
lua_text='return 1'

failures=0
bad() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
ok() { echo "ok: $*"; }
# the planting step, as the mysql user: it may well be refused
as_mysql() { runuser -u mysql -- "$@" >/dev/null 2>&1; }
running_as() { # PID COMM: a live (not zombie) process named COMM
  [ -r "/proc/$1/stat" ] && [ "$(cat "/proc/$1/comm" 2>/dev/null)" = "$2" ] &&
    [ "$(sed 's/.*) //' "/proc/$1/stat" | cut -d' ' -f1)" != Z ]
}
# run CMD... under GNU time: $rc, $out, $err as expect_rc gives them, $rss_kb its peak RSS
measured() {
  out=$(/usr/bin/time -o "$t/time" -f %M "$@" 2>"$t/stderr"); rc=$?
  err=$(cat "$t/stderr")
  rss_kb=$(tail -n 1 "$t/time")
}

# every arm this test started goes, whatever happened
mpids=()
cleanup() {
  local d p
  for d in "$base"/vbed-* "$t"/y*/host/vbed-* "$t"/r/host/vbed-*; do
    [ -d "$d" ] && timeout 120 "$VBED" host arm-stop -- "$d" >/dev/null 2>&1
  done
  for p in "${mpids[@]}"; do running_as "$p" mariadbd && kill -9 "$p"; done
  return 0
}
trap cleanup EXIT

# arm-start of $base/NAME; dir, datadir, errlog, socket, lua and mpid from its reply
start_arm() { # NAME
  dir=$base/$1
  out=$(timeout 120 "$VBED" host arm-start --timeout 60 --mycnf "$mycnf" --lua "$lua_text" -- "$dir" 2>"$t/start.err") ||
    { cat "$t/start.err" >&2; fail "arm-start of $dir failed"; }
  datadir=$(jq -r .datadir <<<"$out") errlog=$(jq -r .errlog <<<"$out")
  socket=$(jq -r .socket <<<"$out") lua=$(jq -r .lua <<<"$out") mpid=$(jq -r .pid <<<"$out")
  mpids+=("$mpid")
}

# files of root's that a planted link could make the helper write or show
secret=$t/secret
echo "TOPSECRET-$$" > "$secret" && chmod 600 "$secret"
victim() { printf 'KEEP\n' > "$t/victim-$1"; chmod 644 "$t/victim-$1"; }
unchanged() { [ "$(cat "$t/victim-$1" 2>/dev/null)" = KEEP ]; }

start_arm "vbed-$id-one"
one=$dir

# ---- 1. the arm directory is root's; the helper trusts no file mysql can write ----
# mysqld.err a link to a root-only file: arm-file must not show it
as_mysql ln -sfn "$secret" "$errlog"
as_mysql ln -sfn "$secret" "$dir/mysqld.err"
out=$(timeout 30 "$VBED" host arm-file -- "$dir" mysqld.err 2>&1)
case $out in
  *TOPSECRET*) bad "1: arm-file followed mysql's link mysqld.err -> $secret and printed it" ;;
  *) ok "1: arm-file does not follow a link planted as mysqld.err" ;;
esac
# program.pid and programs-cpu links: arm-exec must not write through them
victim pid; victim cpu
as_mysql ln -sfn "$t/victim-pid" "$dir/program.pid"
as_mysql ln -sfn "$t/victim-cpu" "$dir/programs-cpu"
timeout 60 "$VBED" host arm-exec -- "$dir" true >/dev/null 2>&1
if unchanged pid && unchanged cpu; then ok "1: arm-exec does not write through program.pid/programs-cpu links"
else bad "1: arm-exec wrote through a link planted as program.pid or programs-cpu"; fi
# extract.tar a link: arm-archive must not write the archive over its target
victim tar
as_mysql ln -sfn "$t/victim-tar" "$dir/extract.tar"
timeout 120 "$VBED" host arm-archive -- "$dir" >/dev/null 2>&1
if unchanged tar; then ok "1: arm-archive does not write through an extract.tar link"
else bad "1: arm-archive wrote $(stat -c %s "$t/victim-tar") bytes through a link planted as extract.tar"; fi
# the workload script replaced: sysbench (root) must not run mysql's Lua
if command -v sysbench >/dev/null; then
  as_mysql rm -f "$lua"
  as_mysql sh -c "printf '%s\n' 'os.execute(\"id > $t/pwned-lua\")' > '$lua'"
  timeout 60 "$VBED" host arm-exec -- "$dir" sysbench "$lua" --db-driver=mysql "--mysql-socket=$socket" \
    --mysql-user=root prepare >/dev/null 2>&1
  if [ -e "$t/pwned-lua" ]; then bad "1: root ran the Lua script mysql planted as $lua: $(cat "$t/pwned-lua")"
  else ok "1: the Lua script sysbench runs is not mysql's to replace"; fi
else
  skip "no sysbench here (make deps): the planted Lua script cannot be tried"
fi
# extract.tar replaced by an archive holding a setuid-root file, after
# arm-archive made it and before tar_extract extracts it (as root)
mkdir -p "$t/mysqlwork" && chown mysql: "$t/mysqlwork"
as_mysql sh -c "cd '$t/mysqlwork' && cp /bin/true suid && chmod 4755 suid &&
  tar --owner=0 --group=0 -cf evil.tar suid"
timeout 120 "$VBED" host arm-archive -- "$dir" >/dev/null 2>&1
as_mysql rm -f "$dir/extract.tar"
as_mysql cp "$t/mysqlwork/evil.tar" "$dir/extract.tar"
timeout 60 "$VBED" host arm-exec -- "$dir" mkdir -p "$dir/io" >/dev/null 2>&1
timeout 120 "$VBED" host arm-exec -- "$dir" sh -c 'tar -xf "$1" -C "$2"' tar "$dir/extract.tar" "$dir/io" >/dev/null 2>&1
found=$(find "$dir/io" -perm -4000 2>/dev/null)
if [ -n "$found" ]; then bad "1: tar_extract (root) created mysql's setuid file: $(ls -l $found)"
else ok "1: the archive root extracts is not mysql's to replace"; fi
# what is left to mysql: one directory of its own; the rest is root's and not group/world-writable
owner=$(stat -c %U "$dir")
[ "$owner" = root ] && [ $(( 0$(stat -c %a "$dir") & 022 )) -eq 0 ] || bad "1: the arm directory is $owner's, mode $(stat -c %a "$dir")"
for f in "$dir"/*; do
  [ "$f" = "$(dirname "$datadir")" ] && continue
  [ "$(stat -c %U "$f")" = root ] || bad "1: $f in the arm directory belongs to $(stat -c %U "$f")"
done

# ---- 3. a FIFO or a link among the tables: arm-status neither hangs nor measures another file ----
as_mysql mkdir -p "$datadir/sbtest"
as_mysql mkfifo "$datadir/sbtest/sbtest1.ibd"
timeout 30 "$VBED" host arm-status -- "$dir" >/dev/null 2>&1; rc=$?
if [ $rc -eq 124 ]; then bad "3: arm-status hung on a FIFO planted as sbtest1.ibd (killed after 30 s)"
else ok "3: arm-status returns with a FIFO among the tables (exit $rc)"; fi
as_mysql rm -f "$datadir/sbtest/sbtest1.ibd"
head -c 4194304 /dev/urandom > "$t/big" && cat "$t/big" >/dev/null
as_mysql ln -sfn "$t/big" "$datadir/sbtest/sbtest2.ibd"
out=$(timeout 30 "$VBED" host arm-status -- "$dir" 2>/dev/null)
resident=$(jq -r '.resident_bytes // 0' <<<"$out" 2>/dev/null)
if [ "${resident:-0}" -ge 4194304 ] 2>/dev/null; then bad "3: arm-status measured the file a planted link names ($resident bytes)"
else ok "3: arm-status does not follow a link among the tables (${resident:-?} bytes)"; fi
as_mysql rm -f "$datadir/sbtest/sbtest2.ibd"

# ---- 4. arm-file reads the last MiB, not a file of the attacker's size ----
as_mysql rm -f "$errlog" # it may be a link from above
as_mysql sh -c "truncate -s 256M '$errlog' && echo tail-of-the-log >> '$errlog'"
measured timeout 60 "$VBED" host arm-file -- "$dir" mysqld.err
if [ "$rss_kb" -gt 65536 ]; then bad "4: arm-file of a 256 MiB sparse mysqld.err peaked at $((rss_kb / 1024)) MiB"
elif [ $rc -ne 0 ] || ! contains "$out" tail-of-the-log; then bad "4: arm-file of a large mysqld.err (exit $rc) lost its end: $err"
else ok "4: arm-file of a 256 MiB mysqld.err: its end, in $((rss_kb / 1024)) MiB"; fi

# ---- 8. arm-start touches only what is an arm: no mark, no removal; a live arm is refused ----
plain=$base/vbed-$id-plain
mkdir "$plain" && echo keep > "$plain/keep"
timeout 120 "$VBED" host arm-start --timeout 60 --mycnf "$mycnf" --lua "$lua_text" -- "$plain" >/dev/null 2>"$t/plain.err"; rc=$?
if [ $rc -eq 0 ] || [ ! -f "$plain/keep" ]; then bad "8: arm-start took over a directory without the mark (exit $rc)"
else ok "8: arm-start refuses a directory without the mark: $(head -n 1 "$t/plain.err")"; fi
timeout 30 "$VBED" host arm-sql -- "$one" 'CREATE DATABASE keepme' >/dev/null 2>&1
timeout 120 "$VBED" host arm-start --timeout 60 --mycnf "$mycnf" --lua "$lua_text" -- "$one" >"$t/again.out" 2>"$t/again.err"; rc=$?
[ $rc -eq 0 ] && mpids+=("$(jq -r .pid "$t/again.out")")
if [ $rc -eq 0 ] || ! running_as "$mpid" mariadbd; then
  bad "live arm: arm-start on a running arm (exit $rc) left its mariadbd $mpid $(running_as "$mpid" mariadbd && echo running || echo gone)"
elif ! timeout 30 "$VBED" host arm-sql -- "$one" 'SHOW DATABASES' 2>/dev/null | grep -q keepme; then
  bad "live arm: arm-start on a running arm wiped its datadir"
else ok "live arm: arm-start refuses a running arm: $(head -n 1 "$t/again.err")"; fi

# ---- base: a .../host directory another user owns or may write is refused ----
for how in owner mode; do
  b=$t/y-$how/host
  mkdir -p "$b"
  if [ $how = owner ]; then chown mysql: "$b"; else chmod 777 "$b"; fi
  timeout 120 "$VBED" host arm-start --timeout 60 --mycnf "$mycnf" --lua "$lua_text" -- "$b/vbed-$id-b" >/dev/null 2>"$t/base.err"; rc=$?
  if [ $rc -eq 0 ]; then bad "base: arm-start used a base directory $(stat -c '%U %a' "$b")"
  else ok "base: arm-start refuses a base directory $(stat -c '%U %a' "$b"): $(head -n 1 "$t/base.err")"; fi
done

# ---- 2. a forged program.pid never makes arm-stop signal every process ----
# in a private pid namespace: if it does, only the namespace's processes die
cat > "$t/ns.sh" <<'NS'
t=$1 VBED=$2 base=$3 id=$4
sleep 300 & by1=$!
setsid sleep 300 & by2=$!
arm() { "$VBED" host arm-start --timeout 60 --mycnf $'[mysqld]\ninnodb_buffer_pool_size=16M\n' --lua x -- "$base/vbed-$id-ns" >/dev/null 2>&1; }
alive() { kill -0 "$by1" 2>/dev/null && kill -0 "$by2" 2>/dev/null; }
st1=$(sed 's/.*) //' /proc/1/stat | cut -d' ' -f20)
arm || { echo "arm-start failed" > "$t/ns.result"; exit 0; }
runuser -u mysql -- sh -c "echo '1 $st1' > '$base/vbed-$id-ns/program.pid'" 2>/dev/null
timeout 60 "$VBED" host arm-stop -- "$base/vbed-$id-ns" >/dev/null 2>&1
alive && echo mysql-ok >> "$t/ns.result"
# a record that somehow names pid 1 (root's own file): still refused
[ -d "$base/vbed-$id-ns" ] || arm
echo "1 $st1" > "$base/vbed-$id-ns/program.pid"
timeout 60 "$VBED" host arm-stop -- "$base/vbed-$id-ns" >/dev/null 2>"$t/ns.err"
alive && echo root-ok >> "$t/ns.result"
# a record naming a process that leads no process group: no group signalled
[ -d "$base/vbed-$id-ns" ] || arm
echo "$by1 $(sed 's/.*) //' /proc/$by1/stat | cut -d' ' -f20)" > "$base/vbed-$id-ns/program.pid"
timeout 60 "$VBED" host arm-stop -- "$base/vbed-$id-ns" >/dev/null 2>&1
kill -0 "$by1" 2>/dev/null && echo group-ok >> "$t/ns.result"
"$VBED" host arm-stop -- "$base/vbed-$id-ns" >/dev/null 2>&1
NS
: > "$t/ns.result"
timeout 300 unshare --pid --fork --mount-proc bash "$t/ns.sh" "$t" "$VBED" "$base" "$id"
result=$(tr '\n' ' ' < "$t/ns.result")
contains "$result" mysql-ok >/dev/null || bad "2: arm-stop killed other processes after mysql wrote '1 <start of pid 1>' into program.pid ($result)"
contains "$result" root-ok >/dev/null || bad "2: arm-stop signalled group 1 (kill(-1)) for a record naming pid 1 ($result)"
contains "$result" group-ok >/dev/null || bad "2: arm-stop signalled a process group the helper did not start ($result)"
[ "$result" = "mysql-ok root-ok group-ok " ] && ok "2: arm-stop signals no process group it did not start (pid namespace)"

# ---- the remote side: a fake ssh that runs the helper here, then misbehaves ----
mkdir -p "$t/bin"
cat > "$t/bin/ssh" <<'SSH'
#!/bin/bash
# a fake ssh: runs the helper's command line (the last argument) here with
# sh, as sshd would on the remote host; FAKE_SSH says how to misbehave.
# Anything that is not the helper (libvirt's own ssh) is refused.
cmd=${!#}
case $cmd in
  "'$VBED_REMOTE_VBED' 'host' "*) ;;
  *) echo "fake ssh: not the helper" >&2; exit 255 ;;
esac
case "$FAKE_SSH:$cmd" in
  pad:*"'arm-list'"*) # a valid reply, then 256 MiB of blanks
    sh -c "$cmd"; head -c 268435456 /dev/zero | tr '\0' ' '; exit 0 ;;
  escape:*) # a terminal's escape sequences on stderr
    printf '\033]0;owned\007\033[2J\033[31mred\033[0m\n' >&2; exec sh -c "$cmd" ;;
  long-socket:*"'arm-start'"*) # the reply's socket: the arm directory plus 3000 bytes
    sh -c "$cmd" | jq -c '.socket = .dir + "/" + ("a" * 3000)'; exit "${PIPESTATUS[0]}" ;;
  flood:*"'arm-exec'"*) # 160 MiB of output, once
    if [ ! -e "$FAKE_SSH_FLAG" ]; then
      touch "$FAKE_SSH_FLAG"; head -c 167772160 /dev/zero | tr '\0' 'x'; exit 0
    fi ;;
esac
exec sh -c "$cmd"
SSH
chmod 755 "$t/bin/ssh"
export VBED_REMOTE_VBED=$VBED
remote=qemu+ssh://root@fakehost/system

# an arm of a session this machine never recorded (another machine's, live)
start_arm "vbed-other1-host"
foreign=$dir foreign_pid=$mpid

# ---- 5. an ssh reply is bounded: a padded reply stops ssh, vbed stays small ----
# Against the same command's peak with a plain reply, in the same build: the
# reply may take up to 4 x its 32 MiB limit more (a buffer doubling up to the
# limit, and under ASan its quarantine holding the freed halves: +92 MiB
# here, +30 MiB without ASan), never the 256 MiB a reply read whole would
measured env PATH="$t/bin:$PATH" FAKE_SSH=plain timeout 120 "$VBED" -c "$remote" clean --pool-dir "$t/x/pool"
plain_kb=$rss_kb
measured env PATH="$t/bin:$PATH" FAKE_SSH=pad timeout 120 "$VBED" -c "$remote" clean --pool-dir "$t/x/pool"
if [ $((rss_kb - plain_kb)) -gt 131072 ]; then
  bad "5: a reply padded with 256 MiB made vbed peak at $((rss_kb / 1024)) MiB, $(((rss_kb - plain_kb) / 1024)) MiB above a plain reply's (exit $rc)"
elif [ $rc -eq 124 ]; then bad "5: vbed clean did not return within 120 s of a padded reply"
elif ! contains "$err" "arm-list" >/dev/null; then bad "5: the oversized arm-list reply is not named: $err"
else ok "5: a 256 MiB reply: refused, vbed peaked at $((rss_kb / 1024)) MiB ($(((rss_kb - plain_kb) / 1024)) above a plain reply's): $(grep -m 1 arm-list <<<"$err")"; fi

# ---- remote stderr reaches the terminal without its escape sequences ----
env PATH="$t/bin:$PATH" FAKE_SSH=escape timeout 120 "$VBED" -c "$remote" clean --dry-run --pool-dir "$t/x/pool" >/dev/null 2>"$t/esc.err"
if grep -q $'\033' "$t/esc.err"; then bad "stderr: the remote helper's escape sequences reached vbed's stderr"
else ok "stderr: remote stderr without escape sequences: $(grep -m 1 owned "$t/esc.err")"; fi

# ---- 7. vbed clean -c keeps the arms of sessions this machine never recorded ----
timeout 300 env PATH="$t/bin:$PATH" "$VBED" -c "$remote" clean --pool-dir "$t/x/pool" >"$t/clean.out" 2>&1
if [ ! -d "$foreign" ] || ! running_as "$foreign_pid" mariadbd; then
  bad "7: vbed clean -c $remote removed the live arm of an unrecorded session: $(grep -m 1 "$foreign" "$t/clean.out")"
else ok "7: vbed clean -c keeps an unrecorded session's arm (and its mariadbd $foreign_pid)"; fi
timeout 300 "$VBED" -c test:///default clean --pool-dir "$t/x/pool" >"$t/clean.out" 2>&1
[ -d "$foreign" ] || bad "7: vbed clean (local) removed the arm of an unrecorded session"

# ---- 6. the paths of an arm-start reply: the arm's own, and never an abort ----
cat > "$t/remote.ini" <<INI
[global]
workload    = oltp_read_only
tables      = 1
table_size  = 1000
threads     = 1
warmup      = 1s
duration    = 2s
buffer_pool = 16M
memory      = 1G
drop_caches = no
pool_dir    = $t/r/pool
hosts       = $remote

[host]
arm = host
INI
mkdir -p "$t/r/pool"
env PATH="$t/bin:$PATH" FAKE_SSH=long-socket timeout 300 "$VBED" run --id tr6$$ -o "$t/res6" "$t/remote.ini" >/dev/null 2>"$t/run6.err"; rc=$?
left=$(ls "$t/r/host" 2>/dev/null)
if [ $rc -eq 134 ] || [ $rc -eq 124 ]; then bad "6: a 3000-byte socket path in the arm-start reply: exit $rc"
elif [ $rc -eq 0 ]; then bad "6: a run accepted an arm-start reply whose socket is not the arm's"
elif [ -n "$left" ]; then bad "6: the refused arm is still there: $left"
else ok "6: an arm-start reply with a foreign socket path: refused (exit $rc): $(grep -m 1 socket "$t/run6.err")"; fi

# ---- the streamed output of arm-exec is bounded on this machine's disk ----
measured env PATH="$t/bin:$PATH" FAKE_SSH=flood FAKE_SSH_FLAG="$t/flooded" timeout 300 "$VBED" run --id tr7$$ -o "$t/res7" "$t/remote.ini"
biggest=$(find "$t/res7" -type f -printf '%s %p\n' 2>/dev/null | sort -n | tail -n 1)
if [ $rc -eq 124 ]; then bad "stream: vbed run did not return within 300 s of a flood"
elif [ "${biggest%% *}" -gt $((64 * 1048576 + 4096)) ]; then bad "stream: 160 MiB of arm-exec output reached the disk: $biggest"
elif [ $rc -eq 0 ]; then bad "stream: a run whose output was cut counted as a success"
elif ! grep -q "vbed: output cut" "${biggest#* }"; then echo "$err" >&2; bad "stream: the cut log does not say it was cut: ${biggest#* }"
else ok "stream: arm-exec output cut at ${biggest%% *} bytes, the run failed (exit $rc): $(grep -m 1 'output' <<<"$err")"; fi
[ -z "$(ls "$t/r/host" 2>/dev/null)" ] || bad "stream: the arm is still there after the failed run: $(ls "$t/r/host")"

# ---- 7 (cont.): --foreign removes it ----
timeout 300 "$VBED" -c test:///default clean --foreign --pool-dir "$t/x/pool" >"$t/clean.out" 2>&1
[ ! -d "$foreign" ] || bad "7: vbed clean --foreign kept the arm of an unrecorded session: $(cat "$t/clean.out")"

[ $failures -eq 0 ] || fail "$failures of the checks above failed"
echo "the host arm's trust boundary holds"
