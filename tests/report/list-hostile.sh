# list-hostile.sh: a crafted results folder cannot break `vbed list`'s
# table nor act on the terminal. Copies of a recorded run with: a scenario
# name holding ESC, a newline and a tab (refused by the reader: listed as
# unreadable); a 5000-byte arm name in meta.json and in samples.jsonl
# (refused); a directory whose own name holds ESC, a newline and a tab and
# is 200 bytes long (read: its name escaped and cut); a long scenario name
# with a right-to-left override (escaped and cut). The table has one line
# per directory, no control character, bounded lines, and equals its
# golden file tests/data/list/hostile.table.
. "$VBED_SRC/tests/lib.sh"
need_prog python3

root=$VBED_TEST_TMP/results
mkdir -p "$root"
src=tests/data/results/quickstart-cache
long=$(printf 'x%.0s' $(seq 5000))

craft() { # NAME PYTHON: a copy of src, edited by a python snippet with d = the copy
  local d=$root/$1
  cp -r "$src" "$d"
  D="$d" python3 -c "import json, os; d = os.environ['D']; $2"
}
# json.dump escapes the control characters as JSON does (\u001b, \n, \t)
craft a-scenario-ctl "m = json.load(open(d + '/meta.json')); m['scenario']['name'] = 'red\x1b[31m\nfake row\tx'; json.dump(m, open(d + '/meta.json', 'w'))"
craft b-arm-long "m = json.load(open(d + '/meta.json')); m['arms'][2]['name'] = '$long'; json.dump(m, open(d + '/meta.json', 'w'))"
craft c-sample-arm-long "
lines = open(d + '/samples.jsonl').read().splitlines()
s = json.loads(lines[4]); s['labels']['arm'] = '$long'; lines[4] = json.dumps(s)
open(d + '/samples.jsonl', 'w').write('\n'.join(lines) + '\n')"
craft e-scenario-rtl "m = json.load(open(d + '/meta.json')); m['scenario']['name'] = 'evil\u202e' + 'y' * 200; m['started_at'] = '2026-12-01T00:00:00Z'; json.dump(m, open(d + '/meta.json', 'w'))"
evil_dir=$root/$'d-dir\e[2J\nfake row\t'$(printf 'z%.0s' $(seq 180))
cp -r "$src" "$evil_dir"
grep -q $'\e' <(ls "$root") || fail "the hostile directory name was not made"

cd "$VBED_TEST_TMP"
expect_rc 0 "$VBED" list results
table=$out
printf '%s\n' "$table" > table.txt
# one header and five rows, whatever the names hold
[ "$(wc -l < table.txt)" -eq 6 ] || { cat -A table.txt >&2; fail "the table does not have one line per directory"; }
LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]' table.txt && { cat -A table.txt >&2; fail "a control character reached the table"; }
LC_ALL=C grep -q $'\t' table.txt && fail "a tab reached the table"
[ "$(awk '{ if (length($0) > m) m = length($0) } END { print m }' table.txt)" -le 260 ] || fail "a line of the table is too long"
grep -q "$long" table.txt && fail "the 5000-byte arm name was printed"
printf '%s\n' "$err" | LC_ALL=C grep -q $'[\x01-\x09\x0b-\x1f\x7f]' && fail "a control character reached stderr"
[ "$(printf '%s\n' "$err" | wc -l)" -eq 3 ] || fail "expected one message per unreadable directory, got: $err"
contains "$err" "scenario.name: 'red\\x1b[31m\\nfake row\\x09x' is not a scenario name" || fail "no escaped reason for the scenario name"
contains "$err" "arms[2].name: 'xxxxxxxx" || fail "no reason for the long arm name"
contains "$err" "samples.jsonl:5: labels.arm: 'xxxx" || fail "no reason for the long sample arm name"

row() { grep -F "$1" table.txt || fail "no row for $1"; }
row "results/a-scenario-ctl" | grep -q " unreadable " || fail "a-scenario-ctl is not unreadable"
row "results/b-arm-long" | grep -q " unreadable " || fail "b-arm-long is not unreadable"
row "results/c-sample-arm-long" | grep -q " unreadable " || fail "c-sample-arm-long is not unreadable"
row 'results/d-dir\e[2J\nfake row\tzzzz' | grep -q " complete " || fail "the escaped directory name is not shown"
row 'evil\u{202E}yyyy' | grep -q " complete " || fail "the right-to-left override is not escaped"
sed -n 2p table.txt | grep -q "e-scenario-rtl" || fail "newest first: e-scenario-rtl (2026-12-01) is not first"
check_golden "$VBED_SRC/tests/data/list/hostile.table" "$table"

# the machine formats stay well-formed
"$VBED" list --format=json results 2>/dev/null | jq -e 'length == 5 and ([.[] | select(.state == "unreadable")] | length) == 3' >/dev/null ||
  fail "json: not 5 entries with 3 unreadable"
"$VBED" list --format=csv results 2>/dev/null > rows.csv
python3 -c "import csv, sys; rows = list(csv.reader(open('rows.csv'))); sys.exit(0 if len(rows) == 1 + 3 + 6 + 6 else 1)" ||
  fail "csv: expected a header, one row per unreadable directory and 6 per readable one"
LC_ALL=C grep -q $'[\x01-\x09\x0b-\x1f\x7f]' rows.csv && fail "a control character reached the csv"
echo "hostile names: escaped, cut, the table intact"
