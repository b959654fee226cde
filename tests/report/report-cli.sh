# report-cli.sh: `vbed report` on the quickstart-cache fixture (a copy: it
# writes into the results directory): every format equals its golden file
# under tests/data/report (the same files test_report.c checks), summary.csv,
# report.html and the plots are written where they should be, and bad
# command lines or results directories exit 2 with a message.
# VBED_UPDATE_GOLDEN=1 rewrites the golden files of the table, json and
# markdown formats.
. "$VBED_SRC/tests/lib.sh"

fixture=tests/data/results/quickstart-cache
golden=tests/data/report/quickstart-cache
res=$VBED_TEST_TMP/quickstart-cache
cp -r "$fixture" "$res"

for f in table:table csv:summary.csv json:json markdown:md; do
  format=${f%%:*} ext=${f#*:}
  expect_rc 0 "$VBED" report --no-html --format="$format" "$res"
  printf '%s\n' "$out" > "$VBED_TEST_TMP/out.$ext"
  if [ "${VBED_UPDATE_GOLDEN:-0}" = 1 ] && [ "$format" != csv ]; then
    cp "$VBED_TEST_TMP/out.$ext" "$golden.$ext"
  elif ! diff -u "$golden.$ext" "$VBED_TEST_TMP/out.$ext"; then
    fail "--format=$format differs from $golden.$ext"
  fi
done
# -f and md are the short forms
expect_rc 0 "$VBED" report --no-html -f md "$res"
[ "$out" = "$(cat "$VBED_TEST_TMP/out.md")" ] || fail "-f md differs from --format=markdown"

# the facts a reader looks for, in case a golden file was regenerated blindly
expect_rc 0 "$VBED" report --no-html "$res"
contains "$out" "not comparable with KVM" || fail "no TCG warning"
contains "$out" "Ratios of mean TPS: guest/host 0.025 per guest, tuned/host 0.040 aggregate, tuned/guest 1.614 per guest" || fail "ratios"
contains "$out" "host   host        -  3    604.36  +- 28.77  11.58  1.9%" || fail "host row"
contains "$out" "run 6 (guest, repeat 2), guest 1: TPS drifts by +0.174" || fail "drift note"

# --no-html: summary.csv only, equal to the csv format
[ -f "$res/summary.csv" ] || fail "no summary.csv in the results directory"
diff -u "$golden.summary.csv" "$res/summary.csv" || fail "summary.csv differs"
[ -e "$res/report.html" ] && fail "--no-html wrote report.html"

# without gnuplot: the tables and a page without plots that says why, exit 3
mkdir "$VBED_TEST_TMP/nobin" "$VBED_TEST_TMP/out2"
expect_rc 3 env PATH="$VBED_TEST_TMP/nobin" "$VBED" report -o "$VBED_TEST_TMP/out2" "$res"
contains "$out" "Ratios of mean TPS" || fail "no tables without gnuplot"
contains "$err" "install gnuplot-nox" || fail "no hint to install gnuplot"
contains "$(cat "$VBED_TEST_TMP/out2/report.html")" "No plots: gnuplot is not installed" || fail "page without plots"
[ -s "$VBED_TEST_TMP/out2/summary.csv" ] || fail "no summary.csv without gnuplot"

# bad command lines and results directories: exit 2, nothing printed on stdout
expect_rc 0 "$VBED" report --help
contains "$out" "usage: vbed report" || fail "--help"
expect_rc 2 "$VBED" report
contains "$err" "report takes one results directory" || fail "no operand"
expect_rc 2 "$VBED" report "$res" "$res"
expect_rc 2 "$VBED" report --format=xml "$res"
contains "$err" "--format: 'xml' is not one of table, csv, json, markdown." || fail "bad format"
expect_rc 2 "$VBED" report --frobnicate "$res"
expect_rc 2 "$VBED" report "$VBED_TEST_TMP/no-such-dir"
contains "$err" "Cannot read the results directory '$VBED_TEST_TMP/no-such-dir': No such file or directory" || fail "missing dir"
[ -z "$out" ] || fail "printed a report of nothing"
expect_rc 2 "$VBED" report "$res/meta.json"
contains "$err" "is not a results directory" || fail "a file"
mkdir "$VBED_TEST_TMP/empty"
expect_rc 2 "$VBED" report "$VBED_TEST_TMP/empty"
contains "$err" "$VBED_TEST_TMP/empty/meta.json" || fail "no meta.json"
# the plots need gnuplot: without it this test cannot check them (skip,
# which VBED_TEST_NO_SKIP=1 turns into a failure)
need_prog gnuplot

# -o DIR: everything goes there, nothing new into the results directory
rm -f "$res/summary.csv"
mkdir "$VBED_TEST_TMP/out"
expect_rc 0 "$VBED" report -o "$VBED_TEST_TMP/out" "$res"
for f in summary.csv report.html tps-bars.svg tps-time-1.svg tps-time-4.svg host-cache.svg; do
  [ -s "$VBED_TEST_TMP/out/$f" ] || fail "-o: $f missing"
done
contains "$err" "report.html and 6 plots" || fail "-o: no word about the html"
[ -e "$res/summary.csv" ] || [ -e "$res/report.html" ] && fail "-o wrote into the results directory"
ls /tmp | grep -q "^vbed-plot\." && ls -d /tmp/vbed-plot.* && fail "a temporary plot directory was left"
# the arm names reach the bars' key as data
for arm in host guest tuned; do
  grep -q ">$arm</text>" "$VBED_TEST_TMP/out/tps-bars.svg" || fail "tps-bars.svg: no key entry for $arm"
done
# guests as an axis: the scaling plot
mkdir "$VBED_TEST_TMP/out3"
expect_rc 0 "$VBED" report -o "$VBED_TEST_TMP/out3" tests/data/results/quickstart-guests
[ -s "$VBED_TEST_TMP/out3/scaling.svg" ] || fail "no scaling.svg for guests = 1, 2"
grep -q ">guest: efficiency</text>" "$VBED_TEST_TMP/out3/scaling.svg" || fail "scaling.svg: no efficiency series"
contains "$(cat "$VBED_TEST_TMP/out3/report.html")" "TPS against the number of guests" || fail "report.html: no scaling plot"
echo "vbed report: formats, files and exit codes as expected"
