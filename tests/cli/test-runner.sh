# test-runner.sh: tests/run-tests.sh itself, on a suite of stand-in tests.
# Two tests marked "# vbed-test: paired N" run at once, each on CPUs of its
# own (each waits for the other to have started: run one after the other,
# the first times out), and the longest first; a paired test that fails is
# counted failed; a suite of paired tests alone is not "a suite that ran
# nothing"; VBED_TEST_PAIRS=0 runs them one at a time on every CPU; a suite
# with no test fails; a failing test's own reason (its "FAIL: " line) is
# shown beside it and in the list of failures, though its log's tail has
# moved past it; VBED_UPDATE_GOLDEN is refused under CI; a filter and an
# exclusion with the same pattern run the two halves of a suite, each test
# in exactly one.
. "$VBED_SRC/tests/lib.sh"
need_prog taskset
[ "$(nproc)" -ge 2 ] || skip "needs 2 CPUs to run two tests at once"

t=$VBED_TEST_TMP/tree
mkdir -p "$t/tests/pair" "$t/tests/empty"
cp "$VBED_SRC/tests/run-tests.sh" "$t/tests/"
# a stand-in paired test: say where it runs and wait (10 s at most) for the
# other one to start
stand_in() { # NAME OTHER SECONDS RC
  cat > "$t/tests/pair/$1.sh" <<EOF
# vbed-test: paired $3 (a stand-in)
d=$t/marks
mkdir -p "\$d"
echo "\$(date +%s.%N)" > "\$d/$1.start"
taskset -cp \$\$ | sed 's/.*: //' > "\$d/$1.cpus"
for i in \$(seq 1 100); do
  [ -e "\$d/$2.start" ] && { [ $4 -eq 0 ] || { echo "FAIL: $1's own reason" >&2; seq 1 40; }; exit $4; }
  sleep 0.1
done
echo "$2 never started beside $1"
exit 3
EOF
}
stand_in short long 5 0
stand_in long short 50 1

runs() { (cd "$t" && env -u CI -u VBED_TEST_NO_SKIP -u VBED_TEST_FILTER -u VBED_TEST_EXCLUDE "$@" bash tests/run-tests.sh pair) 2>&1; }
out=$(runs VBED_TEST_PAIRS=1)
rc=$?
echo "$out"
[ $rc -eq 1 ] || fail "exit $rc with a paired test failing, not 1"
contains "$out" "1 passed, 1 failed, 0 skipped" || fail "the two paired tests were not both counted"
echo "$out" | grep -Eq '^PASS +pair +short ' || fail "the short test did not pass beside the long one"
echo "$out" | grep -Eq '^FAIL +pair +long .*\(exit 1\)' || fail "the long test's failure was not counted as its own"
case $out in *"ran no test"*) fail "a suite of paired tests counted as running none";; esac
# why it failed, beside its name, though its log's tail no longer holds it
echo "$out" | grep -Fxq "      why: FAIL: long's own reason" && echo "$out" | grep -Fxq "failed: pair/long -- FAIL: long's own reason" ||
  fail "the long test's reason is not shown beside its name and in the list of failures"
[ "$(cat "$t/marks/short.cpus")" != "$(cat "$t/marks/long.cpus")" ] ||
  fail "both tests ran on CPUs $(cat "$t/marks/long.cpus")"
# the longest first: it takes the first lane, CPU 0 on
[ "$(sed 's/[,-].*//' "$t/marks/long.cpus")" = 0 ] ||
  fail "the long test took the second lane (CPUs $(cat "$t/marks/long.cpus")): the short one went first"

# one at a time: each waits for the other in vain
rm -rf "$t/marks"
out=$(runs VBED_TEST_PAIRS=0)
echo "$out"
echo "$out" | grep -Eq '^FAIL +pair +(short|long) .*\(exit 3\)' ||
  fail "VBED_TEST_PAIRS=0 still ran the two at once"
[ "$(cat "$t/marks/long.cpus")" = "$(taskset -cp $$ | sed 's/.*: //')" ] ||
  fail "one at a time, a test ran on CPUs $(cat "$t/marks/long.cpus"), not on all of this shell's"

out=$(cd "$t" && env -u CI -u VBED_TEST_NO_SKIP -u VBED_TEST_FILTER -u VBED_TEST_EXCLUDE bash tests/run-tests.sh empty 2>&1)
[ $? -eq 1 ] && contains "$out" "ran no test" || fail "an empty suite passed: $out"
# the two halves of a suite (make check-asan): each test in exactly one
mkdir -p "$t/tests/halves"
for n in alpha beta gamma; do echo "echo ran $n" > "$t/tests/halves/$n.sh"; done
half() { (cd "$t" && env -u CI -u VBED_TEST_NO_SKIP -u VBED_TEST_FILTER -u VBED_TEST_EXCLUDE "$@" \
  bash tests/run-tests.sh halves) 2>&1 | grep -Eo '^PASS +halves +[a-z]+' | awk '{print $3}' | tr '\n' ' '; }
[ "$(half VBED_TEST_FILTER='^(alpha|gamma)$')" = "alpha gamma " ] &&
  [ "$(half VBED_TEST_EXCLUDE='^(alpha|gamma)$')" = "beta " ] ||
  fail "filter and exclusion: '$(half VBED_TEST_FILTER='^(alpha|gamma)$')' and '$(half VBED_TEST_EXCLUDE='^(alpha|gamma)$')'"
out=$(cd "$t" && env -u CI -u VBED_TEST_NO_SKIP -u VBED_TEST_FILTER VBED_TEST_EXCLUDE=. bash tests/run-tests.sh halves 2>&1)
[ $? -eq 0 ] && contains "$out" "0 passed" || fail "an exclusion that leaves none: $out"
out=$(cd "$t" && CI=1 VBED_UPDATE_GOLDEN=1 bash tests/run-tests.sh pair 2>&1)
[ $? -eq 2 ] && contains "$out" "refused under CI" || fail "VBED_UPDATE_GOLDEN was not refused under CI: $out"
echo "run-tests.sh: pairs on CPUs $(cat "$t/marks/short.cpus" 2>/dev/null) and $(cat "$t/marks/long.cpus"), counted and ordered"
