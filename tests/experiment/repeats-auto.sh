# repeats-auto.sh: repeats = auto repeats a run until its TPS has a CV at
# most cv_target (after at least three repeats), or repeats_max: a generous
# target stops at three repeats; a strict one (1 %) stops at three only if
# those three have a CV of at most 1 % (recomputed here from samples.jsonl),
# else goes on to the cap -- an auto mode that ignored cv_target would stop
# at three, or run to the cap, either way against the CV. Then the two runs
# compared (vbed compare, table and csv): both means, the difference, Welch's
# t and degrees of freedom equal those recomputed from the samples, and the
# verdict is "significant" exactly where the p it prints is below 0.05 and
# that p is the t distribution's for that t and df (host arm, fast).
# Its checks hold whatever the machine's noise: the stop rule against the CV
# recomputed from the same samples, compare's figures against the samples.
# vbed-test: paired 81 (its checks are consistency with its own samples: a neighbour cannot turn them)
. "$VBED_SRC/tests/lib.sh"
need_root
need_prog jq
need_prog python3

tps() { jq -r 'select(.metric == "tps_arm") | .value' "$(latest_results "$1")/samples.jsonl"; }
# CV in % of the first three values on stdin (sample sd / mean)
cv3() { head -n 3 | awk '{ x[NR] = $1; s += $1 } END { m = s / NR; for (i = 1; i <= NR; i++) v += (x[i] - m) ^ 2; print 100 * sqrt(v / (NR - 1)) / m }'; }

sed 's/^repeats     = 3/repeats     = auto\ncv_target   = 100\nrepeats_max = 5/' \
  tests/data/scenarios/host-repeats.ini > "$VBED_TEST_TMP/loose.ini"
expect_rc 0 "$VBED" run --id e2eautoa -o "$VBED_TEST_TMP/a" "$VBED_TEST_TMP/loose.ini"
contains "$err" "within 100% after 3 repeats" || fail "no word of convergence"
[ "$(tps "$VBED_TEST_TMP/a" | wc -l)" -eq 3 ] || fail "cv_target 100%: $(tps "$VBED_TEST_TMP/a" | wc -l) repeats, expected 3"

sed 's/^repeats     = 3/repeats     = auto\ncv_target   = 1\nrepeats_max = 4/' \
  tests/data/scenarios/host-repeats.ini > "$VBED_TEST_TMP/strict.ini"
expect_rc 0 "$VBED" run --id e2eautob -o "$VBED_TEST_TMP/b" "$VBED_TEST_TMP/strict.ini"
n=$(tps "$VBED_TEST_TMP/b" | wc -l)
cv=$(tps "$VBED_TEST_TMP/b" | cv3)
echo "cv_target 1%: $n repeats; the first three's CV $cv %"
if awk -v c="$cv" 'BEGIN { exit !(c <= 1) }'; then
  [ "$n" -eq 3 ] || fail "cv_target 1%: the first three repeats had a CV of $cv %, yet it ran $n"
else
  [ "$n" -eq 4 ] || fail "cv_target 1%: the first three repeats had a CV of $cv %, yet it stopped at $n (cap 4)"
fi
assert_nothing_left e2eautoa
assert_nothing_left e2eautob

# vbed compare of the two runs, its figures against the samples
a=$(latest_results "$VBED_TEST_TMP/a")
b=$(latest_results "$VBED_TEST_TMP/b")
expect_rc 0 "$VBED" compare "$a" "$b"
echo "$out"
echo "$out" | grep -Eq '^  default +host +3 +[0-9.]+ +[34] +[0-9.]+ +[-+][0-9.]+% +[0-9.e-]+ +(significant|not significant)$' ||
  fail "compare gives no row with a verdict for the host arm"
expect_rc 0 "$VBED" compare --format=csv "$a" "$b"
header='variant_label,arm,n_a,tps_mean_a,n_b,tps_mean_b,diff_pct,welch_t,welch_df,welch_p,verdict'
[ "$(echo "$out" | head -n 1)" = "$header" ] || fail "csv header: '$(echo "$out" | head -n 1)', expected '$header'"
[ "$(echo "$out" | wc -l)" -eq 2 ] || fail "csv: expected one row for one variant x arm"
row=$(echo "$out" | tail -n 1)
A=$(tps "$VBED_TEST_TMP/a" | tr '\n' ' ') B=$(tps "$VBED_TEST_TMP/b" | tr '\n' ' ') ROW=$row python3 - <<'PY' || fail "compare's figures are not the samples': $row"
import math, os, sys
a = [float(x) for x in os.environ["A"].split()]
b = [float(x) for x in os.environ["B"].split()]
f = os.environ["ROW"].split(",")
mean = lambda v: sum(v) / len(v)
var = lambda v: sum((x - mean(v)) ** 2 for x in v) / (len(v) - 1)
ma, mb, va, vb = mean(a), mean(b), var(a) / len(a), var(b) / len(b)
t = (mb - ma) / math.sqrt(va + vb)
df = (va + vb) ** 2 / (va ** 2 / (len(a) - 1) + vb ** 2 / (len(b) - 1))
# two-sided p of Student's t: the density integrated by Simpson's rule
dens = lambda x: math.exp(math.lgamma((df + 1) / 2) - math.lgamma(df / 2)) / math.sqrt(df * math.pi) * (1 + x * x / df) ** (-(df + 1) / 2)
n, lim = 20000, abs(t)
h = lim / n
inner = sum(dens(i * h) * (4 if i % 2 else 2) for i in range(1, n)) * h / 3 + (dens(0) + dens(lim)) * h / 3
p = max(0.0, 1 - 2 * inner)
near = lambda x, y, rel: abs(x - y) <= rel * max(abs(y), 1e-9)
checks = [
    ("n_a", int(f[2]) == len(a)), ("n_b", int(f[4]) == len(b)),
    ("mean_a", near(float(f[3]), ma, 0.005)), ("mean_b", near(float(f[5]), mb, 0.005)),
    ("diff_pct", abs(float(f[6]) - 100 * (mb - ma) / ma) <= 0.05),
    ("t", near(float(f[7]), t, 0.01)), ("df", near(float(f[8]), df, 0.01)),
    ("p", abs(float(f[9]) - p) <= 0.01), ("verdict", (f[10] == "significant") == (float(f[9]) < 0.05)),
]
print("recomputed: mean_a %.3f mean_b %.3f diff %+.2f %% t %.3f df %.2f p %.4f" % (ma, mb, 100 * (mb - ma) / ma, t, df, p))
bad = [k for k, ok in checks if not ok]
if bad:
    print("differs:", " ".join(bad))
    sys.exit(1)
PY
