# help-docs.sh: the environment, files and exit codes that vbed's help and
# man page print are complete: every environment variable the source reads
# (getenv) and every exit code of exitcode.h is in its table.
. "$VBED_SRC/tests/lib.sh"

expect_rc 0 "$VBED" help environment
env_help=$out
vars=$(grep -rhoE 'getenv\("[A-Za-z_][A-Za-z0-9_]*"\)' orchestrator | sed -E 's/getenv\("(.*)"\)/\1/' | sort -u)
[ -n "$vars" ] || fail "found no getenv() in orchestrator/"
for v in $vars; do
  echo "$env_help" | grep -q "^  $v\$" || fail "vbed reads \$$v but 'vbed help environment' does not say so (orchestrator/cli/cli_docs.c)"
done

expect_rc 0 "$VBED" help exit-codes
codes=$(sed -nE 's/^ *EXIT_[A-Z]+ *= *([0-9]+),.*/\1/p' orchestrator/util/exitcode.h)
[ -n "$codes" ] || fail "found no exit code in orchestrator/util/exitcode.h"
for c in $codes; do
  echo "$out" | grep -qE "^  $c +[a-z]" || fail "exit code $c is not in 'vbed help exit-codes'"
done

expect_rc 0 "$VBED" help files
contains "$out" "results/<UTC time>-<scenario>/" || fail "help files lacks results/"
contains "$out" "/var/cache/vbed/images/" || fail "help files lacks the image cache"
expect_rc 0 "$VBED" help --help
for t in keys exit-codes environment files; do
  contains "$out" "  $t" || fail "help --help does not list the topic $t"
done
echo "environment ($(echo $vars | wc -w) variables), exit codes and files documented"
