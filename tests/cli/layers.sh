# layers.sh: scripts/layers.sh (make layers) passes on this tree and fails,
# naming the culprit, on copies with something planted: an include that
# runs upward (util/ to cli/, model/ to report/), a call that runs upward
# (in the objects), an include cycle inside one layer, a main header that
# no longer names a layer below it, and a source file outside the layers'
# folders.
. "$VBED_SRC/tests/lib.sh"
need_prog tsort
need_prog nm
need_prog cc

obj=$(dirname "$VBED")/obj
[ -d "$obj/cli" ] || fail "no objects next to $VBED ($obj): build first"
expect_rc 0 bash scripts/layers.sh --obj "$obj"
contains "$out" "none upward, no cycle" || fail "the tree does not pass: $out"

plant() { # NAME: a fresh copy of orchestrator/ as $src
  src=$VBED_TEST_TMP/$1/orchestrator
  mkdir -p "$(dirname "$src")"
  cp -r orchestrator "$src"
}
refused() { # WHAT: layers.sh on $src (objects $2 if given) fails and says WHAT
  if [ -n "${2:-}" ]; then expect_rc 1 bash scripts/layers.sh --src "$src" --obj "$2"
  else expect_rc 1 bash scripts/layers.sh --src "$src" --obj /nonexistent; fi
  contains "$out" "$1" || fail "layers.sh did not say '$1'"
  echo "refused: $(echo "$out" | grep -F -- "$1" | head -n 1)"
}

# the copy as it is passes (includes only: no objects)
plant same
expect_rc 0 bash scripts/layers.sh --src "$src" --obj /nonexistent
contains "$out" "includes only" || fail "no note that calls were not checked"

# util/ including a header of cli/
plant up
sed -i '0,/#include/s//#include "cli\/cli.h"\n#include/' "$src/util/log.c"
refused "include upward: util/log (util) -> cli/cli (cli)"

# the model including the report layer above it for its structs (they are
# model/model.h's)
plant model
sed -i 's|#include "model/model.h"|#include "report/report.h"|' "$src/model/predict.c"
refused "include upward: model/predict (model) -> report/report (report)"

# two headers of one layer including each other
plant cycle
printf '#include "util/b.h"\n' > "$src/util/a.h"
printf '#include "util/a.h"\n' > "$src/util/b.h"
refused "includes in a cycle: util/"

# a call from util/ to a function of experiment/, seen in the objects alone
# (a declaration written by hand passes every include check)
plant call
o=$VBED_TEST_TMP/call/obj
mkdir -p "$o/util" "$o/experiment"
printf 'void experiment_go(void);\nvoid util_x(void) { experiment_go(); }\n' > "$src/util/x.c"
printf 'void experiment_go(void) {}\n' > "$src/experiment/y.c"
cc -c -o "$o/util/x.o" "$src/util/x.c" && cc -c -o "$o/experiment/y.o" "$src/experiment/y.c" ||
  fail "cannot compile the planted objects"
# an object whose source is gone (a file moved since the last build) is not the tree's
cp "$o/util/x.o" "$o/util/gone.o"
refused "call upward: util/x (util) -> experiment/y (experiment)" "$o"

# the report layer's main header no longer says it may call results/
plant doc
sed -i '0,/results\//s//resultz\//' "$src/report/report.h"
refused "report/report.h does not say that report may call results/"

# a source file outside the folders of the layers
plant stray
printf 'int stray;\n' > "$src/stray.c"
refused "'stray.c' is not inside a layer's folder"
echo "layers.sh holds and refuses what it must"
