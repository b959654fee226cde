# seed-bp-sweep.sh: the shipped buffer-pool-sweep.ini (seed 000) in
# miniature, on the host arm: its sizes made smaller and its guest arm left
# out (the sweep's shape is InnoDB's, and the host arm costs no boot), every
# other key the shipped one's -- O_DIRECT, so the buffer pool is the only
# cache. The shape the seed reports: TPS rises with the pool until the data
# fits in it, the pools below the data miss and the one above does not; the
# report says the largest pool holds the working set; nothing is left.
. "$VBED_SRC/tests/lib.sh"
need_root
need_prog jq

# 60,000 rows (21 MiB on disk) against pools of 8, 16 and 64 MiB: two
# below the data, one above it; 10 s of warm-up, 15 s measured, one table
sc=$VBED_TEST_TMP/sweep.ini
sed -e 's/^tables *=.*/tables       = 1/' -e 's/^table_size *=.*/table_size   = 60000/' \
  -e 's/^warmup *=.*/warmup       = 10s/' -e 's/^duration *=.*/duration     = 15s/' \
  -e 's/^buffer_pool *=.*/buffer_pool  = 8M, 16M, 64M/' -e '/^\[guest\]/,$d' \
  scenarios/buffer-pool-sweep.ini > "$sc"
[ "$(diff scenarios/buffer-pool-sweep.ini "$sc" | grep -c '^>')" -eq 5 ] ||
  fail "scenarios/buffer-pool-sweep.ini no longer has one tables, table_size, warmup, duration and buffer_pool line each"
grep -q '^\[guest\]' scenarios/buffer-pool-sweep.ini || fail "scenarios/buffer-pool-sweep.ini has no [guest] arm to leave out"
grep -q '^flush_method *= *O_DIRECT' "$sc" || fail "the sweep no longer bypasses the page cache"

expect_rc 0 "$VBED" run --id e2esweep -o "$VBED_TEST_TMP/res" "$sc"
echo "$out"
assert_nothing_left e2esweep
r=$(latest_results "$VBED_TEST_TMP/res")
s=$r/samples.jsonl
# each variant's pool (meta.json's labels) with its TPS and hit ratio; one
# number each, a missing one fails
rows=$(jq -r '.variants[] | "\(.index) \(.label)"' "$r/meta.json")
[ "$(echo "$rows" | grep -c .)" -eq 3 ] || fail "expected 3 variants, meta.json has: $rows"
table=""
while read -r idx label; do
  one() { jq -r --argjson v "$idx" --arg m "$1" 'select(.metric == $m and .labels.variants == [$v]) | .value' "$s"; }
  tps=$(one tps_arm) hit=$(one bp_hit_ratio)
  for x in "$tps" "$hit"; do
    awk -v v="$x" 'BEGIN { exit !(v ~ /^[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$/) }' ||
      fail "variant $label: TPS '$tps', hit ratio '$hit'"
  done
  echo "$label: $tps TPS, buffer-pool hit ratio $hit"
  table="$table$tps $hit
"
done <<< "$rows"
# the variants in the order of their pools (8M, 16M, 64M): TPS rises with
# every step (here 278, 380, 923), the two pools below the data miss (hit
# ratio < 0.99) and the 64 MiB one does not (>= 0.99). Between the two
# smaller pools the hit ratio need not rise: InnoDB's linear read-ahead
# reads whole extents for sysbench's range queries, more of them the more
# of an extent the pool holds (here 0.877 at 8 MiB, 0.868 at 16 MiB, with
# 13.1 and 14.1 page reads a transaction); it may not fall by more than 0.02
echo "$table" | awk 'NF { t[++n] = $1; h[n] = $2 }
  END { if (n != 3) exit 1
        if (!(t[1] < t[2] && t[2] < t[3])) { print "TPS does not rise with the pool: " t[1] " " t[2] " " t[3]; exit 1 }
        if (!(h[3] >= 0.99)) { print "the largest pool misses: " h[3]; exit 1 }
        if (!(h[1] < 0.99 && h[2] < 0.99)) { print "a pool below the data does not miss: " h[1] " " h[2]; exit 1 }
        if (!(h[2] >= h[1] - 0.02 && h[3] > h[2])) { print "the hit ratio falls with the pool: " h[1] " " h[2] " " h[3]; exit 1 } }' ||
  fail "the sweep does not have the seed's shape"
expect_rc 0 "$VBED" report --no-html "$r"
contains "$out" "arm host, variant 3: the working set fits in the buffer pool" ||
  fail "the report does not say the largest pool holds the working set"
