# html-chromium.sh: report.html of the quickstart-cache fixture is one
# self-contained page (no scripts, no external files; at least 3 inline SVG
# plots), opens in headless Chromium without console messages, and its
# screenshot shows the plots: the bar chart's arm colours and the shaded
# warm-up of a TPS-over-time plot are on screen. The checks are first shown
# to catch a broken page (console errors) and a blank one.
. "$VBED_SRC/tests/lib.sh"
need_prog gnuplot
need_prog pngtopnm   # netpbm (make deps)
need_prog ppmhist
chromium=$(command -v chromium || command -v chromium-browser) || skip "needs chromium (make deps)"

res=$VBED_TEST_TMP/quickstart-cache
cp -r tests/data/results/quickstart-cache "$res"
expect_rc 0 "$VBED" report --format=csv "$res"
html=$res/report.html
[ -s "$html" ] || fail "no report.html"

# self-contained: nothing to fetch, nothing to run
n_svg=$(grep -c '<svg ' "$html")
[ "$n_svg" -ge 3 ] || fail "only $n_svg inline SVG plots"
grep -Eiq '<(script|link|iframe|object|embed|img)[ >]' "$html" && fail "report.html loads or runs something"
grep -Eo '(src|href)="[^"#][^"]*"' "$html" && fail "report.html refers to another file"
grep -Eq 'url\((["'"'"']?)[^#]' "$html" && fail "report.html refers to an external url()"
for s in "not comparable with KVM" "Variant 1: guest.disk_cache=writeback" "TPS over time: arm guest, variant 1" \
         "Host page cache holding a guest" "run 8 (guest, repeat 2)"; do
  contains "$(cat "$html")" "$s" || fail "report.html lacks '$s'"
done

# shoot FILE.html FILE.png: console messages of the page into FILE.console
shoot() {
  local profile; profile=$(mktemp -d "$VBED_TEST_TMP/profile.XXXXXX")
  timeout 180 "$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$profile" --enable-logging=stderr --v=0 \
    --screenshot="$2" --window-size=1200,2400 "file://$1" >"$2.log" 2>&1
  local rc=$?
  grep -F ':CONSOLE' "$2.log" > "${2%.png}.console"
  [ $rc -eq 0 ] && [ -s "$2" ] || { cat "$2.log"; fail "chromium could not take a screenshot of $1 (exit $rc)"; }
}
colours() { pngtopnm "$1" | ppmhist -noheader | wc -l; }
# pixels of one exact colour (r g b) in a screenshot
pixels() { pngtopnm "$1" | ppmhist -noheader | awk -v r="$2" -v g="$3" -v b="$4" '$1==r && $2==g && $3==b {n=$5} END {print n+0}'; }

# the checks catch a broken page and a blank one
printf '<!DOCTYPE html><html><body><script>console.error("boom"); no_such_function();</script></body></html>\n' > "$VBED_TEST_TMP/broken.html"
shoot "$VBED_TEST_TMP/broken.html" "$VBED_TEST_TMP/broken.png"
[ -s "$VBED_TEST_TMP/broken.console" ] || fail "the console check does not see a script error"
[ "$(colours "$VBED_TEST_TMP/broken.png")" -le 2 ] || fail "the blank check does not see a blank page"

shoot "$html" "$VBED_TEST_TMP/report.png"
if [ -s "$VBED_TEST_TMP/report.console" ]; then
  cat "$VBED_TEST_TMP/report.console"
  fail "report.html logs to the console"
fi
n=$(colours "$VBED_TEST_TMP/report.png")
[ "$n" -ge 100 ] || fail "the screenshot has only $n colours: blank?"
# the bar chart (host #1b9e77, guest #d95f02, tuned #7570b3 bars) and the
# warm-up shading (#e4e4e4) of the first TPS-over-time plot
for c in "27 158 119 host" "217 95 2 guest" "117 112 179 tuned" "228 228 228 warm-up"; do
  set -- $c
  p=$(pixels "$VBED_TEST_TMP/report.png" "$1" "$2" "$3")
  [ "$p" -ge 2000 ] || fail "the screenshot shows only $p pixels of the $4 colour ($1,$2,$3)"
done
# the answer first: its section (background #e8f4ea) fills part of the
# first 1280 x 800 screen, ahead of every table; the detailed tables start
# folded (no <details open>)
shoot_first() {
  local profile; profile=$(mktemp -d "$VBED_TEST_TMP/profile.XXXXXX")
  timeout 180 "$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$profile" --screenshot="$2" --window-size=1280,800 "file://$1" >"$2.log" 2>&1 ||
    { cat "$2.log"; fail "chromium could not take the first screen of $1"; }
}
shoot_first "$html" "$VBED_TEST_TMP/first.png"
a=$(pixels "$VBED_TEST_TMP/first.png" 232 244 234)
[ "$a" -ge 20000 ] || fail "the answer's section shows $a pixels in the first 1280 x 800 screen"
awk '/<section id="answer">/ {a = NR} /<table/ && !t {t = NR} END {exit !(a && t && a < t)}' "$html" ||
  fail "the answer does not come before the first table"
[ "$(grep -c '<details>' "$html")" -ge 1 ] || fail "no folded details"
grep -q '<details open' "$html" && fail "a details section starts open"
echo "report.html: $n_svg inline plots, no console messages, $n colours on screen; the answer: $a pixels of the first screen"
