# help.sh: every command has --help; usage errors exit 2; help keys lists
# every key with its accepted values.
. "$VBED_SRC/tests/lib.sh"

expect_rc 0 "$VBED" --help
top=$out
for c in run image report compare list doctor clean help; do
  contains "$top" "  $c " || fail "--help does not list $c"
  expect_rc 0 "$VBED" "$c" --help
  contains "$out" "usage: vbed" || fail "$c --help prints no usage"
done
contains "$("$VBED" --help)" "130  interrupted by SIGINT" || fail "exit codes not documented in --help"

expect_rc 2 "$VBED"
expect_rc 2 "$VBED" frobnicate
contains "$err" "'frobnicate' is not a vbed command (commands: run, image, report, compare, list, doctor, clean, host, help)." || fail "unknown command message"
expect_rc 2 "$VBED" --no-such-option run
expect_rc 2 "$VBED" run
contains "$err" "run needs exactly one scenario file" || fail "run without scenario"
expect_rc 2 "$VBED" run --xml-dir /tmp scenarios/quickstart.ini
contains "$err" "--xml-dir goes with --dry-run" || fail "xml-dir without dry-run"

expect_rc 0 "$VBED" help keys
contains "$out" "disk_cache" || fail "help keys lacks disk_cache"
contains "$out" "none, writeback, writethrough, directsync, unsafe" || fail "help keys lacks cache modes"
contains "$out" "default: 128M" || fail "help keys lacks buffer_pool default"
expect_rc 0 "$VBED" help exit-codes
contains "$out" "2    bad command line or scenario" || fail "exit codes"
expect_rc 0 "$VBED" help run
contains "$out" "--dry-run" || fail "help run"
expect_rc 2 "$VBED" help nothing
expect_rc 0 "$VBED" --version
