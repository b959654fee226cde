#!/usr/bin/env bash
# bench.sh: figures, not tests (make bench): boot-to-ready of 1 guest and of
# 2 guests started together, vbed's own CPU time while it waits, and the
# image cache's answer time. Prints; asserts nothing.
set -euo pipefail
cd "$(dirname "$0")/../.."
vbed=${VBED:-./vbed}
bash scripts/start-daemons.sh >/dev/null
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "== image cache: a build with nothing to do"
/usr/bin/time -f "   %e s wall, %U s user" "$vbed" -q image build > /dev/null

for n in 1 2; do
  scenario=tests/data/scenarios/one-guest.ini
  [ $n -eq 2 ] && scenario=tests/data/scenarios/two-guests.ini
  echo "== boot to ready, $n guest(s) started together"
  "$vbed" run -o "$tmp" --boot-only "$scenario" > "$tmp/out" 2> "$tmp/err"
  sed 's/^/   /' "$tmp/out"
  grep -o 'vbed used .*' "$tmp/err" | sed 's/^/   /'
done
accel=$(jq -r .accel "$(ls -td "$tmp"/*/ | head -n 1)/meta.json")
echo "== accel: $accel"
