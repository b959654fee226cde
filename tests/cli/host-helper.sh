# host-helper.sh: `vbed host ...`, the helper vbed runs on a remote
# hypervisor host over ssh: one JSON object per request, argv only, an
# error is a message on stderr and a non-zero exit, never half a reply.
. "$VBED_SRC/tests/lib.sh"
need_prog jq
t=$VBED_TEST_TMP

expect_rc 0 "$VBED" host version
printf '%s' "$out" | jq -e '.vbed_host == 1 and (.version | length > 0) and (.drop_caches | type == "boolean")' >/dev/null ||
  fail "version reply: $out"
# this boot of the host: a remote host's KVM probe verdict holds for it only
[ "$(printf '%s' "$out" | jq -r '.boot_id')" = "$(cat /proc/sys/kernel/random/boot_id)" ] ||
  fail "version reply: boot_id is not this boot's: $out"

head -c 65536 /dev/zero > "$t/file with 'quotes' and \$(x)"
cat "$t/file with 'quotes' and \$(x)" >/dev/null
expect_rc 0 "$VBED" host resident -- "$t/file with 'quotes' and \$(x)"
printf '%s' "$out" | jq -e --arg p "$t/file with 'quotes' and \$(x)" '.path == $p and .bytes >= 0 and .bytes <= 65536' >/dev/null ||
  fail "resident reply: $out"

expect_rc 0 "$VBED" host meminfo
printf '%s' "$out" | jq -re '.meminfo' | grep -q '^MemTotal:' || fail "meminfo reply holds no /proc/meminfo"

expect_rc 0 "$VBED" host stat
printf '%s' "$out" | jq -e '(.clk_tck > 0) and (.stat | startswith("cpu "))' >/dev/null || fail "stat reply: $out"

expect_rc 0 "$VBED" host diskstats -- "$t"
printf '%s' "$out" | jq -e '(.major | type == "number") and (.diskstats | length > 0)' >/dev/null ||
  fail "diskstats reply: $out"

expect_rc 0 "$VBED" host df -- "$t/not/there/yet"
printf '%s' "$out" | jq -e '.free_bytes > 0' >/dev/null || fail "df reply: $out"

# errors: a message, no reply
expect_rc 1 "$VBED" host resident -- "$t/missing"
[ -z "$out" ] || fail "a failed request printed a reply: $out"
contains "$err" "Cannot open '$t/missing'" || fail "missing file not named"
# a FIFO or a link in a file's place: refused at once, not waited on nor followed
mkfifo "$t/fifo" && ln -s "$t/file with 'quotes' and \$(x)" "$t/link"
out=$(timeout 20 "$VBED" host resident -- "$t/fifo" 2>&1); rc=$?
[ $rc -eq 1 ] || fail "resident of a FIFO: exit $rc (124: it hung): $out"
contains "$out" "not a regular file" || fail "resident of a FIFO: $out"
expect_rc 1 "$VBED" host resident -- "$t/link"
contains "$err" "symbolic link" || fail "resident of a link: $err"
expect_rc 2 "$VBED" host resident
expect_rc 2 "$VBED" host version extra
expect_rc 2 "$VBED" host format-disk
contains "$err" "unknown request 'format-disk'" || fail "unknown request not named"
exit 0
