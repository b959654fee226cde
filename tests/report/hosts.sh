# hosts.sh: `vbed report` groups an arm by hypervisor host when its guests
# ran on several (labels.host, the hosts key): quickstart-guests with the
# guest arm's guest 1 on one host and guest 2 on another. Arms on one host
# get no such table; a hostile labels.host skips its line, named.
. "$VBED_SRC/tests/lib.sh"
need_prog jq
res=$VBED_TEST_TMP/r
cp -r tests/data/results/quickstart-guests "$res"
jq -c 'if .labels.arm == "guest" and .labels.guest == 2 then .labels.host = "qemu+ssh://root@h2/system"
       elif .labels.arm == "guest" then .labels.host = "qemu:///system"
       else .labels.host = "qemu:///system" end' tests/data/results/quickstart-guests/samples.jsonl > "$res/samples.jsonl"
expect_rc 0 "$VBED" report --no-html "$res"
contains "$out" "By hypervisor host (arms whose guests ran on several hosts)" || fail "no per-host table"
# guest 1 of runs 1, 4, 7, 8 on the first host; guest 2 of runs 4, 8 on the second
line=$(printf '%s\n' "$out" | grep -E '^ *guest +qemu:///system ') || fail "no row for the first host"
set -- $line
[ "$3" = 4 ] || fail "first host: $3 guests measured, expected 4 ($line)"
line=$(printf '%s\n' "$out" | grep -E '^ *guest +qemu\+ssh://root@h2/system ') || fail "no row for the second host"
set -- $line
[ "$3" = 2 ] && [ "$4" = 10.6 ] || fail "second host: expected 2 guests at 10.6 TPS ($line)"
printf '%s\n' "$out" | grep -qE '^ *(host|tuned) +qemu' && fail "one-host arms in the per-host table"

# the fixture as recorded (no host labels): no per-host table
expect_rc 0 "$VBED" report --no-html tests/data/results/quickstart-guests
case $out in *"By hypervisor host"*) fail "per-host table without host labels" ;; esac

# a hostile host label: the line is skipped and named
jq -c 'if .metric == "tps" and .labels.arm == "host" then .labels.host = "a|b\u0007`rm -rf`" else . end' \
  "$res/samples.jsonl" > "$res/s2" && mv "$res/s2" "$res/samples.jsonl"
expect_rc 0 "$VBED" report --no-html "$res"
contains "$err" "labels.host: 'a|b\\x07\`rm -rf\`' is not a host" || fail "hostile host label not refused"
exit 0
