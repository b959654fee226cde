# hostile-names.sh: a results directory is input from whoever shared it.
# Names holding a newline and a gnuplot shell escape ("\n!touch FILE") in an
# arm name (meta.json), a variant label (meta.json), a sample's arm label
# and a sample's other label (samples.jsonl): `vbed report` (plots and
# html) refuses the directory naming the file and the value, or skips the
# sample line, and FILE is never created. (plot.c passes names to gnuplot as
# data whatever the reader lets through: test_report_hostile.c.)
. "$VBED_SRC/tests/lib.sh"
need_prog gnuplot

pwned=$VBED_TEST_TMP/pwned
# JSON text (for sed: \\ is one backslash): "\n" is a newline once parsed
evil='x\\n!touch '"$pwned"'\\n'
src=tests/data/results/quickstart-cache

# craft NAME SED_SCRIPT FILE: a copy of the fixture with FILE edited
craft() {
  local d=$VBED_TEST_TMP/$1
  cp -r "$src" "$d"
  sed -i "$2" "$d/$3"
  printf '%s\n' "$d"
}

# 1. an arm name in meta.json
d=$(craft arm 's|"name": "tuned"|"name": "tuned'"$evil"'"|' meta.json)
grep -q 'touch' "$d/meta.json" || fail "the fixture was not crafted"
expect_rc 2 "$VBED" report "$d"
contains "$err" "$d/meta.json: arms[2].name: 'tunedx\\n!touch $pwned\\n' is not an arm name" || fail "arm name: no clear refusal"
[ -e "$d/report.html" ] || [ -e "$d/tps-bars.svg" ] && fail "arm name: wrote a report"

# 2. a variant label in meta.json
d=$(craft label 's|"label": "guest.disk_cache=writeback"|"label": "guest.disk_cache=writeback'"$evil"'"|' meta.json)
expect_rc 2 "$VBED" report "$d"
contains "$err" "$d/meta.json: variants[0].label: 'guest.disk_cache=writebackx\\n!touch" || fail "variant label: no clear refusal"

# 3. a sample's arm label
d=$(craft sample '5s|"arm":"host"|"arm":"host'"$evil"'"|' samples.jsonl)
expect_rc 2 "$VBED" report "$d"
contains "$err" "$d/samples.jsonl:5: labels.arm: 'hostx\\n!touch" || fail "sample arm: no clear refusal"

# 4. another label of a sample: that line is skipped, the report made
d=$(craft when '0,/"when":"after"/s|"when":"after"|"when":"after'"$evil"'"|' samples.jsonl)
line=$(grep -n 'touch' "$d/samples.jsonl" | cut -d: -f1)
[ -n "$line" ] || fail "the when label was not crafted"
expect_rc 0 "$VBED" report "$d"
contains "$err" "$d/samples.jsonl:$line: labels.when: 'afterx\\n!touch" || fail "when label: not reported"
contains "$err" "line skipped" || fail "when label: not skipped"
[ -s "$d/report.html" ] || fail "when label: no report"

# 5. a scenario name (printable only) and a hostile output directory
d=$(craft scn 's|"name": "quickstart-cache"|"name": "q'"$evil"'"|' meta.json)
expect_rc 2 "$VBED" report "$d"
contains "$err" "scenario.name" || fail "scenario name: no refusal"
out_dir="$VBED_TEST_TMP/out'
!touch $pwned
"
mkdir -p "$out_dir"
expect_rc 0 "$VBED" report -o "$out_dir" "$src"
[ -s "$out_dir/tps-bars.svg" ] || fail "no plots in an output directory with a newline and a quote"

[ -e "$pwned" ] && fail "a hostile name ran a command: $pwned exists"
echo "hostile names: refused or skipped, nothing run"
