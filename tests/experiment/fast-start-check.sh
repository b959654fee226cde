# fast-start-check.sh: a restored guest with copied tables measures what a
# booted one that loaded them does (tests/data/scenarios/fast-start-tiny.ini:
# the two arms differ only in start and prepare, three repeats each,
# shuffled): every run of the cold arm booted and loaded its tables, every
# run of the restored arm was restored (meta.json) and all its runs but
# perhaps the first copied theirs (prepare_s samples), the two arms' TPS
# agree within their 95 % confidence intervals, and so do their InnoDB
# buffer-pool read requests per transaction, within 1 % more (the same
# queries reached the same server; see below); the restored guests were
# ready sooner (boot_to_ready_s plus restore_s below the cold boot's, per
# the samples -- a figure, not a timing assertion: it is printed, and the
# check is that each arm's samples say how it started).
. "$VBED_SRC/tests/lib.sh"
need_libvirt
need_prog jq

res=$VBED_TEST_TMP/res
expect_rc 0 "$VBED" run --id e2efsc -o "$res" tests/data/scenarios/fast-start-tiny.ini
assert_nothing_left e2efsc
r=$(latest_results "$res")
s=$r/samples.jsonl
jq -e '[.runs[] | select(.arm == "cold") | .guest_start[].start] == ["cold", "cold", "cold"]' "$r/meta.json" >/dev/null ||
  fail "the cold arm's guests did not all boot"
jq -e '[.runs[] | select(.arm == "restored") | .guest_start[].start] == ["restored", "restored", "restored"]' \
  "$r/meta.json" >/dev/null || fail "the restored arm's guests were not all restored"
# how each guest got its tables: the cold arm loads (prepare = load); the
# restored arm copies, but the scenario's first guest may find no copy yet
prep() { jq -r --arg a "$1" --arg p "$2" 'select(.metric == "prepare_s" and .labels.arm == $a and .labels.prepare == $p) | .value' "$s" | grep -c .; }
[ "$(prep cold loaded)" -eq 3 ] || fail "the cold arm's guests did not all load their tables ($(prep cold loaded) of 3)"
[ "$(prep restored copied)" -ge 2 ] && [ "$(($(prep restored copied) + $(prep restored loaded)))" -eq 3 ] ||
  fail "the restored arm's guests copied their tables in $(prep restored copied) of 3 runs (loaded: $(prep restored loaded))"
for arm in cold restored; do
  echo "$arm: tables in $(jq -r --arg a "$arm" 'select(.metric == "prepare_s" and .labels.arm == $a) | "\(.value | . * 10 | round / 10) s (\(.labels.prepare))"' "$s" | tr '\n' ' ')"
done
# mean, and half-width of the 95 % CI (t for 2 degrees of freedom), of a
# metric over the arm's runs
stat() { # ARM METRIC
  jq -r --arg a "$1" --arg m "$2" 'select(.metric == $m and .labels.arm == $a) | .value' "$s" |
    awk '{ x[NR] = $1; s += $1 } END { if (NR < 3) exit 1; m = s / NR; for (i = 1; i <= NR; i++) v += (x[i] - m) ^ 2
           printf "%.6g %.6g\n", m, 4.303 * sqrt(v / (NR - 1) / NR) }'
}
per_tx() { # ARM: bp_read_requests / transactions of each run
  jq -r --arg a "$1" 'select((.metric == "bp_read_requests" or .metric == "transactions") and .labels.arm == $a) |
         "\(.labels.run) \(.metric) \(.value)"' "$s" |
    awk '{ v[$1, $2] = $3; runs[$1] = 1 } END { for (r in runs) if (v[r, "transactions"] > 0) print v[r, "bp_read_requests"] / v[r, "transactions"] }'
}
agree() { # NAME "MEAN HALF" "MEAN HALF" [RELATIVE ALLOWANCE]
  echo "$2 $3" | awk -v n="$1" -v rel="${4:-0}" '{ d = $1 - $3; if (d < 0) d = -d
    printf "%s: cold %.4g +- %.3g, restored %.4g +- %.3g (%+.1f %%)\n", n, $1, $2, $3, $4, 100 * ($3 - $1) / $1
    exit !(d <= $2 + $4 + rel * $1) }'
}
c=$(stat cold tps_arm) && w=$(stat restored tps_arm) || fail "fewer than three TPS per arm"
agree "TPS" "$c" "$w" || fail "TPS of the restored guests differs from the booted ones beyond their CIs"
pc=$(per_tx cold | awk '{ x[NR] = $1; s += $1 } END { m = s / NR; for (i = 1; i <= NR; i++) v += (x[i] - m) ^ 2; printf "%.6g %.6g\n", m, 4.303 * sqrt(v / (NR - 1) / NR) }')
pw=$(per_tx restored | awk '{ x[NR] = $1; s += $1 } END { m = s / NR; for (i = 1; i <= NR; i++) v += (x[i] - m) ^ 2; printf "%.6g %.6g\n", m, 4.303 * sqrt(v / (NR - 1) / NR) }')
# Within 1 % of the cold arm's figure beyond the CIs: the arms agreed
# within 0.4 % here once both had warmed up 20 s; without a warm-up the
# booted guests measured the tail of their load, 3.9 % more requests per
# transaction (tests/data/scenarios/fast-start-tiny.ini), and a server that
# did other work (another workload, a plan on the wrong index) fails too.
agree "buffer-pool read requests per transaction" "$pc" "$pw" 0.01 ||
  fail "the restored guests' server did other work per transaction"
for arm in cold restored; do
  echo "$arm: ready after $(jq -r --arg a "$arm" 'select(.metric == "boot_to_ready_s" and .labels.arm == $a) | .value' "$s" | tr '\n' ' ')s" \
    "(restore $(jq -r --arg a "$arm" 'select(.metric == "restore_s" and .labels.arm == $a) | .value' "$s" | tr '\n' ' '))"
done
