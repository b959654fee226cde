# fast-start-check.sh: a restored guest with copied tables measures what a
# booted one that loaded them does (tests/data/scenarios/fast-start-tiny.ini:
# the two arms differ only in start and prepare, two repeats of two guests
# each, shuffled): every guest of the cold arm booted and loaded its tables,
# every guest of the restored arm was restored (meta.json) and all but
# perhaps the first run's copied theirs (prepare_s samples), the two arms'
# TPS agree within 1.4 times, guest against guest of the same repeat and
# CPU (see below: the repeats' spread is wide under TCG), and their
# InnoDB buffer-pool read requests per transaction, within 1 % more (the
# same queries reached the same server; see below); and the restored
# guests were ready in under half a boot's time (boot_to_ready_s plus
# restore_s against the cold boot's: 9-12 s against 35-60 s here; a booted
# guest copies the image's seed datadir since the image holds one, 13 s
# less than mariadb-install-db took).
. "$VBED_SRC/tests/lib.sh"
need_libvirt
need_prog jq

res=$VBED_TEST_TMP/res
expect_rc 0 "$VBED" run --id e2efsc -o "$res" tests/data/scenarios/fast-start-tiny.ini
assert_nothing_left e2efsc
r=$(latest_results "$res")
s=$r/samples.jsonl
jq -e '[.runs[] | select(.arm == "cold") | .guest_start[].start] == ["cold", "cold", "cold", "cold"]' "$r/meta.json" >/dev/null ||
  fail "the cold arm's four guests did not all boot"
jq -e '[.runs[] | select(.arm == "restored") | .guest_start[].start] == ["restored", "restored", "restored", "restored"]' \
  "$r/meta.json" >/dev/null || fail "the restored arm's four guests were not all restored"
# how each guest got its tables: the cold arm loads (prepare = load); the
# restored arm copies, but the first run's two guests may find no copy yet
prep() { jq -r --arg a "$1" --arg p "$2" 'select(.metric == "prepare_s" and .labels.arm == $a and .labels.prepare == $p) | .value' "$s" | grep -c .; }
[ "$(prep cold loaded)" -eq 4 ] || fail "the cold arm's guests did not all load their tables ($(prep cold loaded) of 4)"
[ "$(prep restored copied)" -ge 2 ] && [ "$(($(prep restored copied) + $(prep restored loaded)))" -eq 4 ] ||
  fail "the restored arm's guests copied their tables in $(prep restored copied) of 4 (loaded: $(prep restored loaded))"
for arm in cold restored; do
  echo "$arm: tables in $(jq -r --arg a "$arm" 'select(.metric == "prepare_s" and .labels.arm == $a) | "\(.value | . * 10 | round / 10) s (\(.labels.prepare))"' "$s" | tr '\n' ' ')"
done
# Welch's 95 % CI of the difference between the arms' runs: the two agree
# when it holds 0, give or take ALLOWANCE x the cold arm's mean (the sum of
# the two arms' half-widths, as before, is looser by up to a factor 1.4)
values() { jq -r --arg a "$1" --arg m "$2" 'select(.metric == $m and .labels.arm == $a) | .value' "$s" | tr '\n' ' '; }
per_tx() { # ARM: bp_read_requests / transactions of each guest
  jq -r --arg a "$1" 'select((.metric == "bp_read_requests" or .metric == "transactions") and .labels.arm == $a) |
         "\(.labels.run)/\(.labels.guest) \(.metric) \(.value)"' "$s" |
    awk '{ v[$1, $2] = $3; runs[$1] = 1 } END { for (r in runs) if (v[r, "transactions"] > 0) print v[r, "bp_read_requests"] / v[r, "transactions"] }' | tr '\n' ' '
}
# t(0.975, df), one definition for both of the checks below
cat > "$VBED_TEST_TMP/t975.py" <<'PY'
import math
def t975(df):
    """t(0.975, df) by bisection on the t CDF (Simpson's rule on the density)"""
    dens = lambda x: math.exp(math.lgamma((df + 1) / 2) - math.lgamma(df / 2)) / math.sqrt(df * math.pi) * (1 + x * x / df) ** (-(df + 1) / 2)
    def cdf(t, n=2000):
        h = t / n
        return 0.5 + (sum(dens(i * h) * (4 if i % 2 else 2) for i in range(1, n)) + dens(0) + dens(t)) * h / 3
    lo, hi = 0.0, 60.0
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if cdf(mid) < 0.975 else (lo, mid)
    return lo
PY
export PYTHONPATH=$VBED_TEST_TMP
agree() { # NAME "COLD VALUES" "RESTORED VALUES" [ALLOWANCE]
  NAME=$1 C=$2 W=$3 ALLOW=${4:-0} python3 - <<'PY'
import math, os, sys
from t975 import t975
c = [float(x) for x in os.environ["C"].split()]
w = [float(x) for x in os.environ["W"].split()]
if len(c) < 3 or len(w) < 3:
    print("%s: fewer than three guests an arm" % os.environ["NAME"]); sys.exit(1)
mean = lambda v: sum(v) / len(v)
var = lambda v: sum((x - mean(v)) ** 2 for x in v) / (len(v) - 1)
vc, vw = var(c) / len(c), var(w) / len(w)
df = (vc + vw) ** 2 / ((vc ** 2 / (len(c) - 1) if vc else 0) + (vw ** 2 / (len(w) - 1) if vw else 0) or 1e-300)
half = t975(df) * math.sqrt(vc + vw)
d = mean(w) - mean(c)
allow = float(os.environ["ALLOW"]) * abs(mean(c))
print("%s: cold %.4g, restored %.4g (%+.1f %%); 95 %% CI of the difference %+.4g +- %.3g (df %.1f)%s"
      % (os.environ["NAME"], mean(c), mean(w), 100 * d / mean(c), d, half, df, " + %.3g allowed" % allow if allow else ""))
sys.exit(0 if abs(d) <= half + allow else 1)
PY
}
# TPS, guest against guest: each repeat runs two guests of each arm, in a
# shuffled order (a block), so the machine's speed -- which moved TPS from
# 30 to 53 between repeats here -- falls on both; guest i of a repeat's
# cold run pairs with guest i of its restored run, on the same host CPU
# (pin = auto; checked); restored/booted per pair, its geometric mean and
# 95 % CI (t, n - 1 df: 4 pairs, t 3.18, where three repeats of one guest
# gave t 4.30). The two agree when
# that CI reaches into 1/1.4 ... 1.4, not 1: single repeats under TCG
# moved either way, by up to 44 % -- restored/booted 1.115, 1.150, 1.216 in
# one run (53.5/48.0, 53.5/46.5, 36.6/30.1 tx/s; the QEMU process's CPU per
# transaction 21-32 ms against 24-39), 1.442, 0.885, 1.046 in CI's run of
# 2b936b7, 0.990, 0.679, 1.019 in a run with 10 s of warm-up -- and CI's
# run of f0a23b3 failed Welch's test of the arms' means at +28 % +- 11 %.
# The live XMLs differ in vbed.hold on the kernel command line and PCI
# slots only, and the host's speed gauge did not follow it. The 16 pairs on
# record since (those runs, CI's of 0fea9ee: 0.908 0.643 1.166, and the
# first with two guests a run: 0.939 1.495 0.766 0.589) give 0.97, 95 % CI
# 0.84-1.12: no start effect shows beyond the noise (f0a23b3's pairs are
# not on record). What it catches depends on the repeats' spread: with one
# guest a run, at the first run's, a restored arm planted at 1.8 times
# failed (CI 1.87-2.33); at CI's, only beyond about 2.5 times. With two
# guests a run, at the first run's spread (pairs 0.589-1.495), planted at 3
# times it fails (CI 1.43-5.01), at 1.8 times not (0.86-3.00). For the same
# spread of the pairs, four pairs give a CI 0.64 times as wide as three.
blocks() { # ARM: "repeat/guest tps" of each of its guests
  jq -r --arg a "$1" 'select(.metric == "tps" and .labels.arm == $a) | "\(.labels.repeat)/\(.labels.guest) \(.value)"' "$s" | sort
}
# guest i ran on the same host CPU in every run: a pair is one CPU's
cpus=$(jq -c '[.runs[] | [.placement.guests[]? | "\(.guest):\(.vcpus)"]] | unique' "$r/meta.json")
jq -e 'length == 1 and (.[0] | length == 2) and (.[0] | map(sub("^[0-9]+:"; "")) | unique | length == 2)' <<<"$cpus" >/dev/null ||
  fail "the guests did not keep host CPUs of their own from run to run: $cpus"
C=$(blocks cold) W=$(blocks restored) python3 - <<'PY' ||
import math, os, sys
from t975 import t975
c = dict(l.split() for l in os.environ["C"].splitlines())
w = dict(l.split() for l in os.environ["W"].splitlines())
if sorted(c) != sorted(w) or len(c) < 3:
    print("TPS: the arms' guests do not pair: cold %s, restored %s" % (sorted(c), sorted(w))); sys.exit(1)
r = [math.log(float(w[k]) / float(c[k])) for k in sorted(c)]
n = len(r); m = sum(r) / n
sd = math.sqrt(sum((x - m) ** 2 for x in r) / (n - 1))
h = t975(n - 1) * sd / math.sqrt(n); lim = math.log(1.4)
print("TPS restored/booted per repeat and guest: %s; %.3f, 95 %% CI %.3f-%.3f (must reach into %.3f-%.3f)"
      % (" ".join("%.3f" % math.exp(x) for x in r), math.exp(m), math.exp(m - h), math.exp(m + h), 1 / 1.4, 1.4))
sys.exit(0 if m - h <= lim and m + h >= -lim else 1)
PY
  fail "TPS of the restored guests differs from the booted ones by more than 1.4 times beyond its CI"
# Within 1 % of the cold arm's figure beyond the CI: the arms agreed
# within 0.3 % here once both had warmed up 10 s; without a warm-up the
# booted guests measured the tail of their load, 3.9 % more requests per
# transaction (tests/data/scenarios/fast-start-tiny.ini), and a server that
# did other work (another workload, a plan on the wrong index) fails too.
agree "buffer-pool read requests per transaction" "$(per_tx cold)" "$(per_tx restored)" 0.01 ||
  fail "the restored guests' server did other work per transaction"
# and the point of a fast start: ready in well under half a boot's time
# (restore_s included: copying the saved root disk, the restore, the plug)
cold_ready=$(jq -rs '[.[] | select(.metric == "boot_to_ready_s" and .labels.arm == "cold") | .value] | add / length' "$s")
fast_ready=$(jq -rs '([.[] | select(.metric == "boot_to_ready_s" and .labels.arm == "restored") | .value] | add / length) +
                     ([.[] | select(.metric == "restore_s" and .labels.arm == "restored") | .value] | add / length)' "$s")
echo "ready after: booted $cold_ready s, restored $fast_ready s (restore included), means over each arm's 4 guests"
awk -v c="$cold_ready" -v f="$fast_ready" 'BEGIN { exit !(c > 0 && f > 0 && f < 0.5 * c) }' ||
  fail "restored guests were ready after $fast_ready s against a boot's $cold_ready s: not under half"
