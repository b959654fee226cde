#!/usr/bin/env bash
# request-interaction.sh: figures, not a test (issue 20). Does a request
# through the virtual disk cost a busy guest more than an idle one?
#
# The quickstart's tuned guests (O_DIRECT) send about 37 more requests per
# transaction through their virtual disk than the untuned ones, and their
# vCPUs spend 0.9-2.3 ms more per extra request, where the I/O probe (one
# request at a time, in a guest otherwise idle) prices a request at 0.16-0.36
# ms of the QEMU process. This measures the difference in one untuned guest
# of the quickstart's guest arm (its tables copied, 100,000 rows), with
# sysbench stopped: the host's vCPU time (libvirt's vcpu.0.time) of
#   A  a fixed CPU job (gzip -1 of 8 MiB of mariadbd, JOBS times)
#   B  fio: N random 16 KiB reads of the table at RATE a second, O_DIRECT
#   C  A and B at once
#   D  B through the guest page cache (the table read into it first)
#   E  A and D at once
# REPEATS times, in that order within a repeat. KIND=write makes them page
# writes into a 16 MiB scratch file beside the table instead (D and E then
# write into the guest page cache: their requests come later, from the
# guest's writeback, outside the figure). What a direct read adds
# when the vCPU is busy, beyond what it adds to an idle one, per request:
#   ((C - E) - (B - D)) / N
# It prints each measurement and that figure per repeat, with the mean and
# its 95 % CI. It asserts nothing. It holds the run by stopping vbed
# (SIGSTOP) once the measure phase starts and sysbench in the guest, and
# ends it with SIGCONT + SIGINT, which removes the guest.
#
#   KIND=read RATE=300 N=600 JOBS=6 REPEATS=5 bash tests/bench/request-interaction.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
. tests/lib.sh # guest_status
vbed=${VBED:-./vbed}
kind=${KIND:-read} rate=${RATE:-300} n=${N:-600} jobs=${JOBS:-6} repeats=${REPEATS:-5}
case $kind in read) rw=randread ;; write) rw=randwrite ;; *) echo "KIND: read or write, not $kind" >&2; exit 2 ;; esac
uri=qemu:///system
id=rqix$$
dom=vbed-$id-001-guest-1
bash scripts/start-daemons.sh >/dev/null
tmp=$(mktemp -d)
vpid=
finish() {
  if [ -n "$vpid" ] && kill -0 "$vpid" 2>/dev/null; then
    kill -CONT "$vpid"; kill -INT "$vpid"; wait "$vpid" || true
  fi
  rm -rf "$tmp"
}
trap finish EXIT

# the quickstart's guest arm alone, one guest, measuring long enough to hold
sed -e 's/^warmup *=.*/warmup       = 0s/' -e 's/^duration *=.*/duration     = 900s/' \
  -e 's/^guests *=.*/guests       = 1/' scenarios/quickstart.ini |
  awk '/^\[/ { keep = ($0 == "[global]" || $0 == "[guest]") } keep' > "$tmp/s.ini"
"$vbed" run --id "$id" -o "$tmp/res" "$tmp/s.ini" > "$tmp/log" 2>&1 &
vpid=$!
for _ in $(seq 1 600); do
  grep -q '^vbed: measure: ' "$tmp/log" && break
  kill -0 "$vpid" 2>/dev/null || { cat "$tmp/log"; exit 1; }
  sleep 0.5
done
kill -STOP "$vpid"

gx() { # SCRIPT: its standard output, from /bin/sh -c SCRIPT in the guest,
  # asking once a second (each question is a little of the guest's CPU)
  guest_status $uri "$dom" 600 1 /bin/sh -c "$1" | jq -r '.return["out-data"] // empty' | base64 -d
}
vcpu_ms() { virsh -c $uri domstats --vcpu "$dom" | awk -F= '/vcpu\.0\.time/ { printf "%d\n", $2 / 1e6 }'; }

f=/var/lib/mysql/sbtest/sbtest1.ibd
ro=--readonly
if [ "$kind" = write ]; then f=/var/lib/mysql/vbed-ix-scratch; ro=; fi
gz="i=0; while [ \$i -lt $jobs ]; do gzip -1 -c /tmp/vbed-ix-in > /dev/null; i=\$((i + 1)); done"
fio="fio --name=p --filename=$f --size=16m --rw=$rw --bs=16k --ioengine=psync --rate_iops=$rate --number_ios=$n --runtime=60 $ro --output-format=terse"
field=$([ "$kind" = read ] && echo 6 || echo 47) # terse: KiB read, KiB written
ios="awk -F';' '{ print \$$field / 16 }'"
declare -A job=(
  [A]="$gz"
  [B]="$fio --direct=1 | $ios"
  [C]="$fio --direct=1 > /tmp/vbed-ix-fio & $gz; wait; $ios /tmp/vbed-ix-fio"
  [D]="$fio --direct=0 | $ios"
  [E]="$fio --direct=0 > /tmp/vbed-ix-fio & $gz; wait; $ios /tmp/vbed-ix-fio"
)
gx "pkill -STOP -x sysbench; head -c 8388608 /usr/sbin/mariadbd > /tmp/vbed-ix-in; gzip -1 -c /tmp/vbed-ix-in > /dev/null
    ${ro:+:} fio --name=l --filename=$f --size=16m --rw=write --bs=1m > /dev/null; sync
    cat $f > /dev/null; fio --name=w --filename=$f --size=16m --rw=$rw --bs=16k --direct=1 --number_ios=20 $ro > /dev/null" \
  > /dev/null
echo "== $kind, $(jq -r .accel "$(ls -d "$tmp"/res/*/)/meta.json" 2>/dev/null || echo '?'): $rate ${kind}s/s, $n ${kind}s, gzip -1 of 8 MiB x $jobs"
extra=()
for rep in $(seq 1 "$repeats"); do
  declare -A v=()
  for k in A B C D E; do
    v0=$(vcpu_ms)
    made=$(gx "${job[$k]}")
    v[$k]=$(($(vcpu_ms) - v0))
    printf '   repeat %d %s: %6d ms of vCPU%s\n' "$rep" "$k" "${v[$k]}" "${made:+, $made ${kind}s}"
    [ -z "$made" ] || [ "$made" -eq "$n" ] || echo "   (fio made $made ${kind}s, not $n: the figure below is off)"
  done
  e=$(echo "${v[C]} ${v[E]} ${v[B]} ${v[D]} $n" | awk '{ printf "%.3f", (($1 - $2) - ($3 - $4)) / $5 }')
  extra+=("$e")
  echo "   repeat $rep: a direct $kind costs the busy guest $e ms of vCPU more than the idle one"
done
printf '%s\n' "${extra[@]}" | awk '{ x[NR] = $1; s += $1 } END { m = s / NR; for (i = 1; i <= NR; i++) q += (x[i] - m) ^ 2
  t[1] = 12.71; t[2] = 4.303; t[3] = 3.182; t[4] = 2.776; t[5] = 2.571; t[6] = 2.447; t[7] = 2.365; t[8] = 2.306; t[9] = 2.262
  h = NR > 1 ? (NR - 1 <= 9 ? t[NR - 1] : 2) * sqrt(q / (NR - 1) / NR) : 0
  printf "== mean over %d repeats: %.3f ms per direct %s (95 %% CI +-%.3f)\n", NR, m, k, h }' k="$kind"
