# list.sh: `vbed list` on the recorded results directories
# (tests/data/results/*) in every format equals its golden file
# tests/data/list/recorded.<table|csv|json|md> (VBED_UPDATE_GOLDEN=1
# rewrites them); newest first; a folder or single directories as
# arguments; no results/ is an empty list, a missing DIR exit 2.
. "$VBED_SRC/tests/lib.sh"

for f in table:table csv:csv json:json markdown:md; do
  format=${f%%:*} ext=${f#*:}
  expect_rc 0 "$VBED" list --format="$format" tests/data/results
  check_golden "tests/data/list/recorded.$ext" "$out"
done
# the interrupted run's cut last line is counted, not printed line by line
contains "$err" "quickstart-trx2-interrupted: 1 line of samples.jsonl skipped" || fail "skipped line not summed up"
[ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] || fail "expected one warning, got: $err"

expect_rc 0 "$VBED" list tests/data/results
table=$out
[ "$(printf '%s\n' "$table" | wc -l)" -eq $(( $(ls -d tests/data/results/*/ | wc -l) + 1 )) ] ||
  fail "expected a header and one line per results directory"
printf '%s\n' "$table" | sed -n 2p | grep -q "^2026-12-05 11:12  tests/data/results/quickstart-counts " ||
  fail "the newest run (quickstart-counts) is not first"
printf '%s\n' "$table" | sed -n 3p | grep -q "^2026-12-04 04:17  tests/data/results/quickstart-3-repeats " ||
  fail "the second newest run (quickstart-3-repeats) is not second"
printf '%s\n' "$table" | grep -q "quickstart-trx2-interrupted .* interrupted " || fail "no interrupted state"
printf '%s\n' "$table" | grep -q "host 604 tx/s, guest 18.2-29.8 tx/s, tuned 24.0 tx/s" ||
  fail "quickstart-cache's figures are not vbed report's means"
printf '%s\n' "$table" | grep -q "host 369-1525 MB/s" || fail "no MB/s figure for the raw I/O run"

# single directories, in any order: the same rows
expect_rc 0 "$VBED" list tests/data/results/quickstart-cache tests/data/results/host-io-recorded
[ "$(printf '%s\n' "$out" | wc -l)" -eq 3 ] || fail "two directories: expected 3 lines"
printf '%s\n' "$out" | sed -n 2p | grep -q host-io-recorded || fail "two directories: not newest first"

# json is json, csv has one row per (directory, variant, arm)
"$VBED" list --format=json tests/data/results 2>/dev/null | jq -e 'length == 10 and all(.[]; .state == "complete" or .state == "interrupted")' >/dev/null ||
  fail "json: not 10 entries with their state"

# where there is no results/ yet: an empty list
mkdir "$VBED_TEST_TMP/empty"
out=$(cd "$VBED_TEST_TMP/empty" && "$VBED" list 2>"$VBED_TEST_TMP/empty.err") || fail "vbed list without results/ failed"
[ -z "$out" ] || fail "without results/: expected no table, got: $out"
grep -q "No results directories" "$VBED_TEST_TMP/empty.err" || fail "without results/: no message"
(cd "$VBED_TEST_TMP/empty" && "$VBED" list --format=json 2>/dev/null) | jq -e 'length == 0' >/dev/null || fail "without results/: json is not an empty array"
expect_rc 2 "$VBED" list "$VBED_TEST_TMP/no-such-dir"
contains "$err" "Cannot read the results folder" || fail "missing DIR: no message"
expect_rc 2 "$VBED" list --format=xml tests/data/results

# the URIs of -c's completion: what meta.json names, each once
expect_rc 0 "$VBED" list --uris tests/data/results
[ "$out" = "qemu:///system" ] || fail "--uris: expected qemu:///system, got: $out"
echo "vbed list: 8 recorded runs in 4 formats"
