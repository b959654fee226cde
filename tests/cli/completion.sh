# completion.sh: the bash completion (`vbed help bash-completion`, installed
# as share/bash-completion/completions/vbed) offers, for a line as bash
# splits it: commands, each command's options (all of `vbed CMD --help`'s),
# scenario files for run, results directories for report/compare/list,
# cached images for image rm, the URIs of results directories for -c and
# image push, the values of --format, and help topics. Checked by calling
# _vbed with COMP_WORDS/COMP_CWORD/COMP_LINE/COMP_POINT set, without
# bash-completion and, when it is installed, with it.
. "$VBED_SRC/tests/lib.sh"

script=$VBED_TEST_TMP/vbed.bash
"$VBED" help bash-completion > "$script" || fail "vbed help bash-completion"
bash -n "$script" || fail "the completion script is not valid bash"
bc=/usr/share/bash-completion/bash_completion

# a working directory with scenarios, results directories and a cache
w=$VBED_TEST_TMP/work
mkdir -p "$w/sub" "$w/empty" "$w/results/junk" "$VBED_TEST_TMP/cache/images/debian-mariadb-0123abcd"
touch "$w/a.ini" "$w/b.txt" "$w/sub/c.ini" "$w/notes"
for r in r1 r2; do cp -r tests/data/results/quickstart-tcg-recorded "$w/results/$r"; done
python3 - "$w/results/r2/meta.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
m['hosts'] = [{'host': 'qemu+ssh://root@hostb/system'}, {'host': 'bad uri'}]
json.dump(m, open(sys.argv[1], 'w'))
PY
echo '{"built_at": "2026-12-01T00:00:00Z"}' > "$VBED_TEST_TMP/cache/images/debian-mariadb-0123abcd/manifest.json"
export VBED_CACHE_DIR=$VBED_TEST_TMP/cache
# the words of a line as readline makes them (COMP_WORDBREAKS ':' and '='
# are words of their own), and _vbed's answer, one per line
cat > "$VBED_TEST_TMP/complete.sh" <<'SH'
[ "$MODE" = bash-completion ] && . /usr/share/bash-completion/bash_completion
. "$SCRIPT"
PATH=$VBED_DIR:$PATH
COMP_LINE=$1 COMP_POINT=${#1}
COMP_WORDS=() w=''
for ((k = 0; k < ${#1}; k++)); do
  ch=${1:k:1}
  case $ch in
  ' ') [ -n "$w" ] && COMP_WORDS+=("$w"); w='' ;;
  :|=) [ -n "$w" ] && COMP_WORDS+=("$w"); COMP_WORDS+=("$ch"); w='' ;;
  *) w+=$ch ;;
  esac
done
COMP_WORDS+=("$w")
COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
_vbed vbed "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
printf '%s\n' "${COMPREPLY[@]}" | sort
SH
vbed_dir=$VBED_TEST_TMP/bin
mkdir -p "$vbed_dir"
ln -s "$VBED" "$vbed_dir/vbed"

complete_line() { # LINE: the completions, sorted, one a line
  (cd "$w" && MODE=$mode SCRIPT=$script VBED_DIR=$vbed_dir bash --norc --noprofile "$VBED_TEST_TMP/complete.sh" "$1" 2>/dev/null)
}
expect() { # LINE WORD...: the completions of LINE are exactly WORD...
  local line=$1; shift
  local got want; got=$(complete_line "$line")
  want=$(printf '%s\n' "$@" | sort)
  [ "$got" = "$want" ] || fail "[$mode] '$line': expected [$(echo $want)], got [$(echo $got)]"
}
has() { # LINE WORD...: the completions of LINE include every WORD
  local line=$1; shift
  local got; got=$(complete_line "$line")
  for x in "$@"; do
    printf '%s\n' "$got" | grep -qxF -- "$x" || fail "[$mode] '$line': '$x' not offered (got: $(echo $got))"
  done
}

commands=$("$VBED" --help | awk '/^Commands:/{on=1; next} /^$/{on=0} on {print $1}')
modes=plain
[ -f "$bc" ] || skip "bash-completion is not installed (make deps): its mode of the completion cannot be checked"
modes="plain bash-completion"
for mode in $modes; do
  expect "vbed " $commands
  expect "vbed l" list
  expect "vbed --c" --cache-dir --connect
  expect "vbed run --d" --dry-run
  expect "vbed run " a.ini sub empty results
  expect "vbed run sub/" sub/c.ini
  expect "vbed report " results
  expect "vbed report results/" results/r1 results/r2
  expect "vbed compare results/r1 results/r" results/r1 results/r2
  expect "vbed list " results
  expect "vbed list --format " table csv json markdown
  expect "vbed report --format=j" json
  expect "vbed report -o e" empty
  expect "vbed image " build list rm path verify push
  expect "vbed image rm " debian-mariadb-0123abcd
  expect "vbed --cache-dir $w/empty image rm "
  expect "vbed -c " qemu:///system qemu:///session qemu+ssh://root@hostb/system
  has "vbed image push " qemu+ssh://root@hostb/system
  # bash put "qemu+ssh:" before the cursor's word: the rest is offered
  expect "vbed -c qemu+ssh:" //root@hostb/system
  expect "vbed -c qemu+ssh://r" //root@hostb/system
  expect "vbed -c qemu:///system r" run report
  has "vbed help " $commands keys exit-codes environment files man bash-completion
  expect "vbed host d" drop-caches diskstats df
  # every option of every command, as --help lists it
  for c in $commands; do
    opts=$("$VBED" "$c" --help | awk '/^Options:/{on=1; next} on' | grep -oE '^(  -[a-zA-Z], |      )--[a-z-]+' | grep -oE -- '--[a-z-]+' | sort -u)
    expect "vbed $c -" $opts
  done
done
echo "completion: $(echo $commands | wc -w) commands, modes: $modes"
