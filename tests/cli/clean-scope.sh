# clean-scope.sh: `vbed clean` on a libvirt that several machines share
# removes only what THIS machine's dead sessions left: not a live session's
# (pid and start time still match), not another machine's (domain owner
# metadata), not a session it has no record of, not a KVM probe whose vbed
# still runs; a record whose pid now belongs to another process is dead.
# --images keeps base images while a session here lives, and so the image
# cache's saved ready guests and prepared tables; once no session lives it
# removes those (made again when needed), never the cached image itself.
# --session ID removes one dead session's things alone and forgets only its
# record. Uses libvirt's test driver with a node file (domains, a pool, volumes),
# fake session records and a fake image cache.
. "$VBED_SRC/tests/lib.sh"
need_prog dash
[ -s /etc/machine-id ] || skip "needs /etc/machine-id"

machine=$(cat /etc/machine-id)
tag=$(printf '%s' "$machine" | tr -cd 'a-zA-Z0-9' | tr 'A-Z' 'a-z' | cut -c1-8)
boot=$(cat /proc/sys/kernel/random/boot_id)
export VBED_SESSION_DIR=$VBED_TEST_TMP/sessions
# an image cache with a saved ready guest and a kept set of tables
export VBED_CACHE_DIR=$VBED_TEST_TMP/cache
img=$VBED_CACHE_DIR/images/debian-mariadb-0123456789ab
mkdir -p "$img/ready/k1" "$img/prepared/k2"
echo root >"$img/root.qcow2"
echo state >"$img/ready/k1/state.save"
echo '{}' >"$img/prepared/k2/meta.json"
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
# --session ID (a test beside another, tests/run-tests.sh): only that dead
# session's things go and only its record; another dead session's, a live
# one's and a probe whose vbed is gone stay
record deadtw 1 0 true
node=$VBED_TEST_TMP/one.xml
{
  echo "<node>"
  dom vbed-deadse-001-guest-1
  dom vbed-deadtw-001-guest-1
  dom vbed-livese-001-guest-1
  dom "vbed-probe-$tag-$live" "$machine"
  echo "<pool type='dir'><name>vbed</name><target><path>$VBED_TEST_TMP/pool</path></target>"
  vol vbed-deadse-001-guest-1-root.qcow2
  vol vbed-deadtw-001-guest-1-root.qcow2
  echo "</pool></node>"
} >"$node"
expect_rc 0 "$VBED" -c "test://$node" clean --session deadtw --pool-dir "$VBED_TEST_TMP/pool"
echo "$out"
contains "$out" "removed domain vbed-deadtw-001-guest-1" || fail "--session: its domain not removed"
contains "$out" "removed volume $VBED_TEST_TMP/pool/vbed-deadtw-001-guest-1-root.qcow2" ||
  fail "--session: its volume not removed"
case $out in *"removed "*vbed-deadse*|*"removed "*vbed-livese*|*"removed "*vbed-probe*) fail "--session removed another's";; esac
contains "$out" "clean: removed 2, 0 failed; left 4 things of other sessions (or probes) alone (--session deadtw)" ||
  fail "--session: count"
[ ! -e "$VBED_SESSION_DIR/deadtw" ] && [ -e "$VBED_SESSION_DIR/deadse" ] ||
  fail "--session: not its record alone forgotten: $(ls "$VBED_SESSION_DIR" | tr '\n' ' ')"
for bad in "" Dead x-1 0123456789abc; do
  expect_rc 2 "$VBED" -c "test://$node" clean --session "$bad" --pool-dir "$VBED_TEST_TMP/pool"
  contains "$err" "1 to 12 lower-case letters or digits" || fail "--session '$bad': no clear error"
done
expect_rc 2 "$VBED" -c "test://$node" clean --session deadse --images --pool-dir "$VBED_TEST_TMP/pool"
echo "--session: that session's things alone"

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
contains "$out" "kept the image cache's saved ready guests and prepared tables: a session of this machine is alive" ||
  fail "the image cache's saved guests and tables not kept while a session lives"
[ -e "$img/ready/k1/state.save" ] && [ -e "$img/prepared/k2/meta.json" ] || fail "removed from the image cache while a session lives"
contains "$out" "clean: removed 4, 0 failed" || fail "count"
contains "$out" "left 3 things of running (or unknown) vbed sessions alone" || fail "live count"
contains "$out" "left 4 things of other machines or unrecorded sessions alone (--foreign removes them)" || fail "foreign count"
[ ! -e "$VBED_SESSION_DIR/deadse" ] && [ ! -e "$VBED_SESSION_DIR/reused" ] || fail "dead records not forgotten"
[ -e "$VBED_SESSION_DIR/livese" ] || fail "a live session's record was removed"
echo "only this machine's dead sessions' things removed"

# no session lives any more and no domain or volume remains (a libvirt
# with an empty pool): --images takes what the cache keeps beside the
# images, not the cached image
kill $live
wait $live 2>/dev/null
node=$VBED_TEST_TMP/empty.xml
echo "<node><pool type='dir'><name>vbed</name><target><path>$VBED_TEST_TMP/pool</path></target></pool></node>" >"$node"
expect_rc 0 "$VBED" -c "test://$node" clean --images --dry-run --pool-dir "$VBED_TEST_TMP/pool"
contains "$out" "would remove saved ready guest $img/ready/k1" || fail "dry run: the saved ready guest not listed"
contains "$out" "would remove prepared tables $img/prepared/k2" || fail "dry run: the prepared tables not listed"
[ -e "$img/ready/k1/state.save" ] || fail "the dry run removed the saved ready guest"
expect_rc 0 "$VBED" -c "test://$node" clean --images --pool-dir "$VBED_TEST_TMP/pool"
echo "$out"
contains "$out" "removed saved ready guest $img/ready/k1" || fail "the saved ready guest not removed"
contains "$out" "removed prepared tables $img/prepared/k2" || fail "the prepared tables not removed"
[ ! -e "$img/ready/k1" ] && [ ! -e "$img/prepared/k2" ] || fail "still in the image cache: $(ls -R "$img")"
[ -e "$img/root.qcow2" ] || fail "clean removed the cached image itself"
echo "the image cache's saved guests and tables go with --images once no session lives"
