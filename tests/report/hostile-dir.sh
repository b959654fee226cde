# hostile-dir.sh: root's `vbed report`, `vbed list` and `vbed compare` on
# results directories another user (nobody) owns and filled with traps:
# symbolic links at every name vbed writes or reads (summary.csv,
# report.html, report.html.tmp, the plots and their .tmp, scenario.ini ->
# a root-only file), a hard link to a root file, a FIFO at meta.json and at
# samples.jsonl, samples.jsonl -> /dev/zero and a 300 MiB samples.jsonl.
# No file outside the directories changes or appears, no byte of the
# root-only file reaches any output, nobody's directory gets no file of
# root's (the report goes to stdout, exit 1, -o DIR names a way out), a
# directory of root's with the same traps gets real files in place of the
# links, and each command returns within 20 s under a 1 GiB address-space
# limit.
. "$VBED_SRC/tests/lib.sh"
need_root
need_prog timeout
getent passwd nobody >/dev/null || skip "needs the user nobody"

t=$VBED_TEST_TMP
fixture=tests/data/results/quickstart-cache
secret=$t/root-only
printf 'SECRET-%s\n' "$RANDOM$RANDOM" > "$secret"
chmod 0600 "$secret"
marker=$(cut -c1-20 "$secret")
outside=$t/outside # where a followed link would create files
mkdir "$outside"
sums() { (cd "$t" && find root-only outside -type f -print0 | sort -z | xargs -0 -r sha256sum; ls -A outside); }
before=$(sums)

# traps: every name vbed reads or writes in DIR a link out of it
plant() { # DIR
  local d=$1 n
  rm -f "$d/scenario.ini"
  ln -s "$secret" "$d/scenario.ini"
  ln -s "$secret" "$d/summary.csv"
  for n in report.html report.html.tmp tps-bars.svg tps-bars.svg.tmp tps-times-1.svg gap-1.svg; do
    ln -s "$outside/$n" "$d/$n"
  done
}
# run CMD... bounded: 20 s, 1 GiB of address space (not under ASan, whose
# shadow memory alone reserves terabytes: there the time limit stands for
# both); rc, out and err kept
limit_as=1048576
[ -n "${ASAN_OPTIONS:-}" ] && limit_as=unlimited
bounded() {
  local start=$SECONDS
  out=$( (ulimit -v $limit_as; timeout -s KILL 20 "$@") 2>"$t/stderr"); rc=$?
  err=$(cat "$t/stderr")
  [ $rc -ne 137 ] && [ $((SECONDS - start)) -le 20 ] || fail "'$*' did not return within 20 s (exit $rc)"
}
no_secret() { # TEXT...
  case "$*" in *"$marker"*) fail "the root-only file's text reached an output";; esac
}

# 1. nobody's directory: printed, nothing written, exit 1
nd=$t/nobodys
cp -r "$fixture" "$nd"
plant "$nd"
chown -R -h nobody "$nd"
bounded "$VBED" report "$nd"
[ $rc -eq 1 ] || fail "report on nobody's directory: exit $rc, expected 1"
contains "$out" "TPS" || fail "the report was not printed on stdout"
contains "$err" "vbed writes no file into '$nd': it belongs to uid $(id -u nobody)" || fail "no reason given: $err"
contains "$err" "-o DIR" || fail "no way out named"
contains "$err" "scenario.ini' is left out of the report: it is a symbolic link (not followed)" ||
  fail "the linked scenario.ini was not refused by name"
no_secret "$out" "$err"
[ "$(find "$nd" -user root | wc -l)" -eq 0 ] || fail "root made a file in nobody's directory: $(find "$nd" -user root)"
# ... with -o DIR of root's: the files go there, without the secret
od=$t/out
bounded "$VBED" report -o "$od" "$nd"
[ $rc -eq 0 ] || fail "report -o: exit $rc: $err"
[ -f "$od/report.html" ] && [ ! -L "$od/report.html" ] && [ -f "$od/summary.csv" ] || fail "report -o wrote no report.html or summary.csv"
no_secret "$(cat "$od"/*)"

# 2. root's own directory with the same traps: files replace the links
rd=$t/roots
cp -r "$fixture" "$rd"
plant "$rd"
bounded "$VBED" report "$rd"
[ $rc -eq 0 ] || fail "report on root's directory: exit $rc: $err"
for n in report.html summary.csv tps-bars.svg; do
  [ -f "$rd/$n" ] && [ ! -L "$rd/$n" ] || fail "$n is not a file of its own in root's directory"
done
no_secret "$out" "$err" "$(cat "$rd/report.html" "$rd/summary.csv")"
ls -a "$rd" | grep -q '\.tmp\.\|^\.report\|^\.summary' && fail "a temporary file was left: $(ls -a "$rd")"
# a hard link to a root file at summary.csv: replaced, not written through
rm -f "$rd/summary.csv"
ln "$secret" "$rd/summary.csv"
bounded "$VBED" report --no-html "$rd"
[ $rc -eq 0 ] || fail "report over a hard link: exit $rc"

# 3. FIFOs, /dev/zero, a huge file: refused, bounded
mk() { cp -r "$fixture" "$t/$1"; chown -R nobody "$t/$1"; echo "$t/$1"; }
f1=$(mk fifo-meta); rm "$f1/meta.json"; mkfifo "$f1/meta.json"
f2=$(mk fifo-samples); rm "$f2/samples.jsonl"; mkfifo "$f2/samples.jsonl"
f3=$(mk zero-samples); rm "$f3/samples.jsonl"; ln -s /dev/zero "$f3/samples.jsonl"
f4=$(mk huge-samples); truncate -s 300M "$f4/samples.jsonl"
for d in "$f1" "$f2" "$f3" "$f4"; do
  bounded "$VBED" report --no-html "$d"
  [ $rc -eq 2 ] || fail "report on $(basename "$d"): exit $rc, expected 2 (unreadable)"
  no_secret "$out" "$err"
done
contains "$err" "is larger than 256 MiB" || fail "the huge samples.jsonl was not refused by size: $err"
bounded "$VBED" compare "$f2" "$nd"
[ $rc -eq 2 ] || fail "compare with a FIFO: exit $rc"
bounded "$VBED" compare "$nd" "$rd"
[ $rc -eq 0 ] || fail "compare of nobody's and root's: exit $rc: $err"
no_secret "$out" "$err"
bounded "$VBED" list "$t"
[ $rc -eq 0 ] || fail "list: exit $rc: $err"
contains "$out" "fifo-samples" || fail "list does not show the FIFO's directory"
no_secret "$out" "$err"

# nothing outside changed
[ "$(sums)" = "$before" ] || { diff <(echo "$before") <(sums); fail "a file outside the results directories changed"; }
echo "report, list, compare: traps refused, nothing outside changed"
