# raw-io.sh: `vbed report` on a results directory recorded from a real
# host-arm run here of seq_write, seq_read and tar_extract (64M; raw logs
# left out): the headline is MB/s (mbps_arm), not TPS, with the rule that
# defines it; every format equals its golden file (VBED_UPDATE_GOLDEN=1
# rewrites them).
. "$VBED_SRC/tests/lib.sh"

name=host-io-recorded
report_goldens $name
expect_rc 0 "$VBED" report --no-html --explain "$res"
contains "$out" "MB/s is the arm's throughput per repeat for a raw I/O workload" || fail "no MB/s rule"
case $out in *"TPS mean"*) fail "a raw I/O report speaks of TPS" ;; esac
for v in 1 2 3; do
  contains "$out" "Variant $v: workload=" || fail "variant $v missing"
done
echo "$out" | grep -Eq '^  host +host +- +1 +[0-9]+\.[0-9]+ ' || fail "no MB/s row for the host arm"
# the numbers, apart from the golden files: each variant's MB/s is the mean
# of the samples' mbps_arm over its runs
need_prog python3
expect_rc 0 "$VBED" report --format json --no-html "$res"
J=$out S=$res/samples.jsonl python3 - <<'PY' || fail "the report's MB/s are not the samples'"
import json, os, sys
rep = json.loads(os.environ["J"])
samples = [json.loads(l) for l in open(os.environ["S"]) if l.strip()]
bad = 0
for v in rep["variants"]:
    for arm in v["arms"]:
        vals = [s["value"] for s in samples if s["metric"] == "mbps_arm" and s["labels"].get("arm") == arm["name"]
                and v["index"] in s["labels"].get("variants", [])]
        fig = arm.get("tps") or {}
        mean = sum(vals) / len(vals)
        print("variant %d, %s: %d runs, %.4g MB/s; report %s" % (v["index"], arm["name"], len(vals), mean, fig.get("mean")))
        bad += not (vals and fig.get("n") == len(vals) and abs(fig["mean"] - mean) <= 0.005 * mean)
sys.exit(1 if bad else 0)
PY
