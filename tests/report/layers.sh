# layers.sh: where a transaction's time goes (gap.c) in `vbed report` and
# `vbed compare`, on the quickstart-layers fixtures (a quickstart-like run
# with every per-layer counter, TCG-sized: host ~250 TPS, guests ~12 TPS per
# guest; see tests/data/results/make-fixtures.py). Every format equals its
# golden file (VBED_UPDATE_GOLDEN=1 rewrites them); the text says what a
# reader looks for (in case a golden file was regenerated blindly);
# report.html holds the layers, the split and each variant's stacked bar
# inline, and in headless Chromium the bars are on screen with no console
# message (as html-chromium.sh checks the main page).
. "$VBED_SRC/tests/lib.sh"

name=quickstart-layers
report_goldens $name
for f in table:table json:json markdown:md; do
  format=${f%%:*} ext=${f#*:}
  expect_rc 0 "$VBED" compare --format="$format" "$res" tests/data/results/$name-b
  check_golden "tests/data/report/compare-layers.$ext" "$out"
done

# the facts, independently of the golden files
expect_rc 0 "$VBED" report --no-html "$res"
# the CIs are over the 2 repeats (the guests of a run averaged first):
# compression's 2.82 +- 9.22 ms holds 0, so it is not named
contains "$out" "guest loses 95.1 % of host's TPS per guest: 69.3 +- 7.1 points CPU (virtualization/emulation), 7.9 +- 0.8 points client and hand-off" || fail "variant 1: no sentence"
contains "$out" "The budget of guest closes: 3.4 % of its thread time waiting, unattributed" || fail "variant 1: the guest's budget does not close"
contains "$out" "residual 19.4 +- 1.2 points. The model does not explain this run: the budget of guest does not close." || fail "variant 2: residual not flagged"
contains "$out" "The budget of guest does not close: 19.5 % of its thread time waiting, unattributed (15.17 of 77.64 ms per transaction; limits +-10 %); waits no counter names." || fail "variant 2: an open budget not said"
# the commit stage absent: commit I/O n/a, and the reads, which share the
# block I/O with it; locks are their own counter's, capped by nothing
contains "$out" "(n/a, in the residual: foreground reads, commit I/O)" || fail "an absent counter (and the part it shares with) is not n/a"
contains "$out" "guest  guest block      1.14       4.00        1.20       6.43 ms        3.00 ms  guest page cache      0.600" || fail "no guest block layer"
contains "$out" "arm guest, variant 2: the layers' counters do not fit together: guest block reads" || fail "no consistency note"
# copies: each cache counts up to one working set (the fixture's guest page cache holds more)
echo "$out" | grep -Eq "^  guest  4 +83\.03 \+- 8\.22 .* 3\.4 %  yes +2\.40$" || fail "guest arm: time per transaction, other or copies"
expect_rc 0 "$VBED" compare "$res" tests/data/results/$name-b
# compare's answer first: the pairs beyond noise, largest first -- the
# table's own rows (+7.6 %, p 0.0200; +5.7 %; +2.4 %) -- then the rest counted
printf '%s\n' "$out" | awk '/^Answer$/ {a = NR} /^  variant +arm +n A/ {t = NR} END {exit !(a && t && a < t)}' ||
  fail "compare: no answer before the table"
contains "$out" "Answer
  guest, compression=row-zlib: TPS +7.6 % from A to B (p = 0.02).
  tuned, compression=row-zlib: TPS +5.7 % from A to B (p = 0.0204).
  guest, compression=none: TPS +2.4 % from A to B (p = 0.0438).
  3 other pairs within noise, 0 with too few repeats to tell." || fail "compare: the answer is not the table's significant rows"
contains "$out" "compression=row-zlib  guest  foreground reads                  5.0 pts (4.14 ms)    1.9 pts (1.46 ms)  -3.1 pts" || fail "compare: reads did not move"
# results without layer counters print none of it (a copy: report writes
# summary.csv into the results directory)
cp -r tests/data/results/quickstart-cache "$VBED_TEST_TMP/old"
expect_rc 0 "$VBED" report --no-html "$VBED_TEST_TMP/old"
case $out in *"Where the time goes"*) fail "a report without layer counters shows the split" ;; esac

need_prog gnuplot
mkdir "$VBED_TEST_TMP/html"
expect_rc 0 "$VBED" report -o "$VBED_TEST_TMP/html" "$res"
html=$VBED_TEST_TMP/html/report.html
for v in 1 2; do
  [ -s "$VBED_TEST_TMP/html/gap-$v.svg" ] || fail "no gap-$v.svg"
  for arm in host guest tuned; do
    grep -q ">$arm</text>" "$VBED_TEST_TMP/html/gap-$v.svg" || fail "gap-$v.svg: no bar for $arm"
  done
done
page=$(cat "$html")
for s in "<summary>Layers, per transaction</summary>" "<summary>Where the time goes, per thread and transaction (ms)</summary>" \
         "guest loses 95.1 % of host&apos;s TPS per guest" "Where the time goes, variant 2 (compression=none)"; do
  case $page in *"$s"*) ;; *) s=${s//&apos;/\'}; contains "$page" "$s" || fail "report.html lacks '$s'" ;; esac
done
# each variant's bar sits in its section, before the next variant's title
awk '/<h2>Variant 1/{v=1} /<h2>Variant 2/{v=2} /gap-1.svg\)<\/figcaption>/{print v}' "$html" | grep -qx 1 || fail "gap-1.svg is not in variant 1's section"
grep -Eiq '<(script|link|iframe|object|embed|img)[ >]' "$html" && fail "report.html loads or runs something"

chromium=$(command -v chromium || command -v chromium-browser) || skip "the screenshot part needs chromium (make deps)"
need_prog pngtopnm
need_prog ppmhist
profile=$(mktemp -d "$VBED_TEST_TMP/profile.XXXXXX")
timeout 180 "$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync \
  --user-data-dir="$profile" --enable-logging=stderr --v=0 \
  --screenshot="$VBED_TEST_TMP/page.png" --window-size=1200,3000 "file://$html" >"$VBED_TEST_TMP/chromium.log" 2>&1 \
  || { cat "$VBED_TEST_TMP/chromium.log"; fail "chromium could not take a screenshot"; }
if grep -F ':CONSOLE' "$VBED_TEST_TMP/chromium.log"; then fail "report.html logs to the console"; fi
pixels() { pngtopnm "$VBED_TEST_TMP/page.png" | ppmhist -noheader | awk -v r="$1" -v g="$2" -v b="$3" '$1==r && $2==g && $3==b {n=$5} END {print n+0}'; }
# the stacked bars: CPU (#4477aa), reads (#228833), client (#aa3377)
for c in "68 119 170 CPU" "34 136 51 reads" "170 51 119 client"; do
  set -- $c
  p=$(pixels "$1" "$2" "$3")
  [ "$p" -ge 500 ] || fail "the screenshot shows only $p pixels of the $4 colour ($1,$2,$3)"
done
echo "where the time goes: every format as its golden file, the split on screen"
