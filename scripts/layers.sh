#!/usr/bin/env bash
# layers.sh: check that orchestrator/ is a stack of layers (make layers; make check runs it).
#
#   bash scripts/layers.sh [--src DIR] [--obj DIR]
#
# Each folder of orchestrator/ is a layer; the list below is their order,
# top to bottom. A file may include a header, and call a function, of its
# own folder or of a folder below its own -- never above. Includes are read
# from the sources (#include "folder/name.h"); calls from the objects' symbol
# tables (nm: what each object needs and which object defines it), so a
# call through a declaration copied by hand counts too. Within a folder and
# across folders, no two files may depend on each other in a cycle, by
# include or by call (tsort finds the loops). Exit 0 when the tree obeys,
# 1 with every violation listed otherwise, 2 on a usage error.
#
# --src: the orchestrator/ tree (default: this checkout's); --obj: its
# objects, one folder per layer as the Makefile builds them (default
# build/default/obj; without objects only includes are checked, and said so).
set -u

# top to bottom; each folder's main header says what it owns and may call
LAYERS=(cli experiment workloads probes targets virt image hostside report model results scenario util)
declare -A MAIN=([cli]=cli/cli.h [experiment]=experiment/experiment.h [report]=report/report.h
  [workloads]=workloads/workload.h [probes]=probes/probe.h [targets]=targets/target.h
  [virt]=virt/hypervisor.h [image]=image/image.h [hostside]=hostside/hostside.h
  [model]=model/model.h [results]=results/results.h [scenario]=scenario/scenario.h
  [util]=util/log.h)

here=$(cd "$(dirname "$0")/.." && pwd)
src=$here/orchestrator
obj=$here/build/default/obj
while [ $# -gt 0 ]; do
  case $1 in
    --src) src=$2; shift 2 ;;
    --obj) obj=$2; shift 2 ;;
    *) echo "usage: layers.sh [--src DIR] [--obj DIR]" >&2; exit 2 ;;
  esac
done
[ -d "$src" ] || { echo "layers: no source tree '$src'" >&2; exit 2; }

declare -A RANK
for i in "${!LAYERS[@]}"; do RANK[${LAYERS[$i]}]=$i; done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad=0

# every source file sits in a layer's folder
for f in "$src"/*; do
  [ -d "$f" ] || { echo "layers: '${f#"$src"/}' is not inside a layer's folder"; bad=1; continue; }
  [ -n "${RANK[$(basename "$f")]:-}" ] || { echo "layers: folder '$(basename "$f")' is no layer (add it to LAYERS in $0)"; bad=1; }
done
for f in "$src"/*/*/*; do
  [ -e "$f" ] && { echo "layers: '${f#"$src"/}' is nested below a layer's folder"; bad=1; }
done

# each main header's opening comment names its layer and every layer below
# it ("folder/"), so the order written there is the order checked here
for i in "${!LAYERS[@]}"; do
  l=${LAYERS[$i]} h=$src/${MAIN[${LAYERS[$i]}]}
  [ -f "$h" ] || { echo "layers: layer $l has no main header ${MAIN[$l]}"; bad=1; continue; }
  doc=$(awk 'NR == 1 && !/^\/\*/ { exit } { print } /\*\// { exit }' "$h")
  echo "$doc" | grep -q "the $l layer" || { echo "layers: ${MAIN[$l]} does not open with 'the $l layer'"; bad=1; }
  for below in "${LAYERS[@]:$((i + 1))}"; do
    echo "$doc" | grep -q "$below/" ||
      { echo "layers: ${MAIN[$l]} does not say that $l may call $below/"; bad=1; }
  done
done

# includes: "from to" per line, modules as folder/name (one awk for all the
# files: one a file took 3 s of the 4 here)
( cd "$src" && awk '/^[ \t]*#[ \t]*include[ \t]*"/ {
      m = FILENAME; sub(/\.[^.\/]*$/, "", m)
      t = $0; sub(/^[^"]*"/, "", t); sub(/".*$/, "", t); sub(/\.h$/, "", t)
      if (t != m) print m, t }' */*.[ch] ) > "$tmp/includes"

# calls: the object that needs a symbol -> the object that defines it
have_obj=0
if [ -d "$obj" ] && ls "$obj"/*/*.o >/dev/null 2>&1; then
  have_obj=1
  # nm -A: "object: [value] type symbol" for every object at once
  # the objects of today's sources only (a moved file's old object may linger)
  objs=$(cd "$obj" && for o in */*.o; do [ -f "$src/${o%.o}.c" ] && echo "$o"; done)
  ( cd "$obj" && { nm -A -g --defined-only -- $objs | awk '{ o = $1; sub(/\.o:.*/, "", o)
                                                       if (NF == 3 && $2 ~ /^[TDBRCV]$/) print "def", $3, o
                                                       else if (NF == 4 && $3 ~ /^[TDBRCV]$/) print "def", $4, o }'
                   nm -A -u -- $objs | awk '{ o = $1; sub(/\.o:$/, "", o); print "use", $NF, o }'; } ) |
    awk '$1 == "def" { def[$2] = $3; next } { use[NR] = $2 " " $3 }
         END { for (k in use) { split(use[k], a, " "); if ((a[1] in def) && def[a[1]] != a[2]) print a[2], def[a[1]] } }' |
    sort -u > "$tmp/calls"
else
  : > "$tmp/calls"
  echo "layers: no objects under '$obj' (make first): calls not checked, includes only"
fi

check_edges() { # KIND FILE
  local kind=$1 file=$2
  # an edge to a folder above its own, or to no layer at all
  if ! awk -v kind="$kind" -v order="${LAYERS[*]}" '
      BEGIN { n = split(order, l, " "); for (i = 1; i <= n; i++) rank[l[i]] = i }
      { ff = $1; sub(/\/.*/, "", ff); tf = $2; sub(/\/.*/, "", tf)
        if (!(tf in rank)) { printf "layers: %s %s -> %s: '\''%s'\'' is no layer\n", kind, $1, $2, tf; bad = 1; next }
        if (ff != tf && rank[tf] < rank[ff]) { printf "layers: %s upward: %s (%s) -> %s (%s)\n", kind, $1, ff, $2, tf; bad = 1 } }
      END { exit bad }' "$file"; then
    bad=1
  fi
  # cycles among files (a file's .c and .h are one module)
  if ! tsort "$file" > /dev/null 2> "$tmp/loops"; then
    # tsort names each loop it breaks, one member a line: one loop a line here
    awk -v k="$kind" '/input contains a loop/ { if (l != "") print l; l = ""; next }
                      { sub(/^tsort: /, ""); l = (l == "" ? "layers: " k "s in a cycle: " : l " <-> ") $0 }
                      END { if (l != "") print l }' "$tmp/loops" | sort -u
    bad=1
  fi
}
check_edges include "$tmp/includes"
[ $have_obj -eq 1 ] && check_edges call "$tmp/calls"

n_inc=$(wc -l < "$tmp/includes") n_call=$(wc -l < "$tmp/calls")
if [ $bad -eq 0 ]; then
  echo "layers: ${#LAYERS[@]} layers (${LAYERS[*]}); $n_inc includes and $n_call calls between files, none upward, no cycle"
fi
exit $bad
