# clean-scope.sh: `vbed clean` on a libvirt that several machines share
# removes only what THIS machine's dead sessions left: not a live session's
# (pid and start time still match), not another machine's (domain owner
# metadata), not a session it has no record of, not a KVM probe whose vbed
# still runs; a record whose pid now belongs to another process is dead.
# --images keeps base images while a session here lives. Uses libvirt's test
# driver with a node file (domains, a pool, volumes) and fake session records.
. "$VBED_SRC/tests/lib.sh"
need_prog dash
[ -s /etc/machine-id ] || skip "needs /etc/machine-id"

machine=$(cat /etc/machine-id)
tag=$(printf '%s' "$machine" | tr -cd 'a-zA-Z0-9' | tr 'A-Z' 'a-z' | cut -c1-8)
boot=$(cat /proc/sys/kernel/random/boot_id)
export VBED_SESSION_DIR=$VBED_TEST_TMP/sessions
mkdir -p "$VBED_SESSION_DIR" "$VBED_TEST_TMP/pool"

# a live session's process, and a stand-in for another running vbed
sleep 300 & live=$!
cp "$(command -v dash)" "$VBED_TEST_TMP/vbed"
"$VBED_TEST_TMP/vbed" -c 'sleep 300; :' & othervbed=$!
trap 'kill $live $othervbed 2>/dev/null' EXIT
sleep 0.3
start=$(sed 's/.*) //' "/proc/$live/stat" | cut -d' ' -f20)

record() { # ID PID START ENDED
  printf '{"session":"%s","machine":"%s","boot_id":"%s","pid":%s,"start_time":%s,"ended":%s}\n' \
    "$1" "$machine" "$boot" "$2" "$3" "$4" >"$VBED_SESSION_DIR/$1"
}
record deadse 1 0 true              # ended
record livese "$live" "$start" false
record reused "$live" 1 false       # its pid now names another process

dom() { # NAME [OWNER MACHINE]
  local meta=""
  [ -n "${2:-}" ] && meta="<metadata><vbed:owner xmlns:vbed='https://vbed.invalid/xmlns/owner/1' machine='$2'/></metadata>"
  echo "<domain type='test'><name>$1</name>$meta<memory>131072</memory><os><type>hvm</type></os></domain>"
}
vol() { echo "<volume type='file'><name>$1</name><capacity>1048576</capacity></volume>"; }
node=$VBED_TEST_TMP/node.xml
{
  echo "<node>"
  dom vbed-deadse-001-guest-1
  dom vbed-reused-001-guest-1
  dom vbed-livese-001-guest-1
  dom vbed-norec-001-guest-1
  dom vbed-deadse-002-guest-1 elsewhere
  dom "vbed-probe-$tag-$live" "$machine"
  dom "vbed-probe-$tag-$othervbed" "$machine"
  dom vbed-probe-ffffffff-1 elsewhere
  echo "<pool type='dir'><name>vbed</name><target><path>$VBED_TEST_TMP/pool</path></target>"
  vol vbed-deadse-001-guest-1-root.qcow2
  vol vbed-livese-001-guest-1-root.qcow2
  vol vbed-norec-001-guest-1-root.qcow2
  vol vbed-image-x-0123456789ab.qcow2
  echo "</pool></node>"
} >"$node"

expect_rc 0 "$VBED" -c "test://$node" clean --images --pool-dir "$VBED_TEST_TMP/pool"
echo "$out"
for gone in "domain vbed-deadse-001-guest-1" "domain vbed-reused-001-guest-1" \
            "domain vbed-probe-$tag-$live" "volume $VBED_TEST_TMP/pool/vbed-deadse-001-guest-1-root.qcow2"; do
  contains "$out" "removed $gone" || fail "did not remove $gone"
done
for kept in vbed-livese- vbed-norec- vbed-deadse-002 "vbed-probe-$tag-$othervbed" vbed-probe-ffffffff vbed-image-; do
  case $out in *"removed "*"$kept"*) fail "removed $kept";; esac
done
contains "$out" "kept 1 base image volume: a session of this machine is alive" || fail "images not kept"
contains "$out" "clean: removed 4, 0 failed" || fail "count"
contains "$out" "left 3 things of running (or unknown) vbed sessions alone" || fail "live count"
contains "$out" "left 4 things of other machines or unrecorded sessions alone (--foreign removes them)" || fail "foreign count"
[ ! -e "$VBED_SESSION_DIR/deadse" ] && [ ! -e "$VBED_SESSION_DIR/reused" ] || fail "dead records not forgotten"
[ -e "$VBED_SESSION_DIR/livese" ] || fail "a live session's record was removed"
echo "only this machine's dead sessions' things removed"
