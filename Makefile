# vbed: build, test, install.
#
#   make              build ./vbed
#   make deps         install every Debian package vbed needs (root)
#   make test         build and run all tests: unit (with libvirt's test driver), cli and
#                     report under ASan + UBSan, then image, guests and experiment (real
#                     guests: ~28 min under TCG)
#   make check        the fast tests only (unit, cli, report), after make layers
#   make layers       orchestrator/'s layers: no include or call upward, no cycle
#   make check-asan   the fast tests under AddressSanitizer + UBSan
#   make check-tsan   the unit tests that run threads, under ThreadSanitizer
#   make fuzz FUZZ_SECONDS=60   each libFuzzer target (tests/fuzz) that long under
#                     ASan + UBSan (clang); a crash fails, its input lands in build/fuzz/crashes
#   make demo         a fresh machine's whole path: deps, build, image, quickstart, report
#   make bench        boot-to-ready and CPU figures (prints, asserts nothing)
#   make install PREFIX=/usr/local DESTDIR=   (also the man page and the bash completion)
#   VBED_UPDATE_GOLDEN=1 make check   rewrite the golden files under tests/data

VERSION := $(shell git describe --always --dirty 2>/dev/null || echo 0.1)
PREFIX ?= /usr/local
DESTDIR ?=
BINDIR = $(PREFIX)/bin
DATADIR = $(PREFIX)/share/vbed
MANDIR = $(PREFIX)/share/man/man1
COMPLETIONDIR = $(PREFIX)/share/bash-completion/completions

PKGS := libvirt libvirt-qemu inih json-c libxml-2.0 libguestfs libmariadb libarchive gsl libcrypto zlib
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS := $(shell pkg-config --libs $(PKGS) 2>/dev/null)

CC ?= cc
CFLAGS ?= -O2 -g
SANITIZE ?=
# (the checkout's directory mapped to "." in the debug information: ccache
# then finds a compile of another clone's -- CI clones afresh)
ALL_CFLAGS = -std=c17 -Wall -Wextra -Werror -D_GNU_SOURCE -pthread -fdebug-prefix-map=$(CURDIR)=. \
	$(PKG_CFLAGS) $(CFLAGS) $(SANITIZE)
# ccache where the machine has it (make deps installs it): every compile is
# looked up by its preprocessed source and flags, so a fresh clone (CI's)
# compiles only what changed: CI's three builds (plain, ASan, fuzz) took
# 101 s, and now 35 s after a commit (123 s with an empty cache); links
# are not cached, so the test and fuzz binaries compile to objects first.
# VBED_CCACHE= turns it off.
VBED_CCACHE ?= $(shell command -v ccache 2>/dev/null)
COMPILE = $(VBED_CCACHE) $(CC)
# gold where the compiler has it: a test binary under ASan (the whole
# library, with its debug information) links in 0.26 s against bfd's 0.67 s,
# and a CI build links about 70
FAST_LD := $(shell $(CC) -fuse-ld=gold -Wl,--version 2>/dev/null | grep -q 'GNU gold' && echo -fuse-ld=gold)
ALL_LDFLAGS = $(LDFLAGS) $(FAST_LD) $(SANITIZE) -pthread
LIBS = $(PKG_LIBS) -lm

BUILD ?= build/default
space := $(subst ,, )
SRCS := $(wildcard orchestrator/*/*.c)
HDRS := $(wildcard orchestrator/*/*.h)
LIB_SRCS := $(filter-out orchestrator/cli/main.c,$(SRCS))
LIB_OBJS := $(LIB_SRCS:orchestrator/%.c=$(BUILD)/obj/%.o)
TEST_SRCS := $(wildcard tests/unit/test_*.c)
TEST_BINS := $(TEST_SRCS:tests/unit/%.c=$(BUILD)/tests/%)

.PHONY: guest-image FORCE all deps test check seeds layers check-asan check-tsan fuzz fuzz-bins demo bench install uninstall clean readme-keys
.DELETE_ON_ERROR:

all: vbed build/vbed.1 build/vbed.bash-completion

vbed: $(BUILD)/vbed
	install -m 0755 $< $@

# the man page comes from vbed's own tables (vbed help man)
build/vbed.1: vbed
	@mkdir -p build
	./vbed help man > $@

# and so does the bash completion (vbed help bash-completion)
build/vbed.bash-completion: vbed
	@mkdir -p build
	./vbed help bash-completion > $@

# the whole library: a workload's file registers itself (workloads/workload.h)
# and is referenced by nothing else
WHOLE = -Wl,--whole-archive $(BUILD)/libvbed.a -Wl,--no-whole-archive

$(BUILD)/vbed: $(BUILD)/obj/cli/main.o $(BUILD)/libvbed.a
	$(CC) $(ALL_LDFLAGS) -o $@ $(BUILD)/obj/cli/main.o $(WHOLE) $(LIBS)

$(BUILD)/libvbed.a: $(LIB_OBJS)
	rm -f $@
	ar rcs $@ $^

# the version and the data directory only in the one module that holds
# each: on every compile line, a new commit would make every file one that
# ccache has not seen. version.o is compiled again when the version changes
# (the file below changes only then)
$(BUILD)/obj/util/version.o: ALL_CFLAGS += -DVBED_VERSION='"$(VERSION)"'
$(BUILD)/obj/util/version.o: $(BUILD)/version.txt
$(BUILD)/obj/util/paths.o: ALL_CFLAGS += -DVBED_DATADIR='"$(DATADIR)"'
$(BUILD)/version.txt: FORCE
	@mkdir -p $(BUILD); echo '$(VERSION)' | cmp -s - $@ || echo '$(VERSION)' > $@
FORCE:

$(BUILD)/obj/%.o: orchestrator/%.c $(HDRS) | $(BUILD)/obj
	@mkdir -p $(dir $@)
	$(COMPILE) $(ALL_CFLAGS) -Iorchestrator -c -o $@ $<

# a unit test's object beside the library's, not among the binaries
# (run-tests.sh runs every test_* there)
$(BUILD)/unit/%.o: tests/unit/%.c tests/unit/testutil.h $(HDRS) | $(BUILD)/unit
	$(COMPILE) $(ALL_CFLAGS) -Iorchestrator -c -o $@ $<

$(BUILD)/tests/%: $(BUILD)/unit/%.o $(BUILD)/libvbed.a | $(BUILD)/tests
	$(CC) $(ALL_LDFLAGS) -o $@ $< $(WHOLE) $(LIBS) -lcmocka

$(BUILD)/obj $(BUILD)/tests $(BUILD)/unit:
	mkdir -p $@

test-bins: $(BUILD)/vbed $(TEST_BINS)

deps:
	bash scripts/install-deps.sh

# all suites; .ci/run runs this with VBED_TEST_NO_SKIP=1: the fast ones
# (unit, cli, report) under AddressSanitizer + UBSan (make check-asan),
# the ones with real guests (image, guests, experiment) with the plain build
# (its vbed only: the unit binaries run under ASan, not twice)
# The guest image first (cached: a 0.1 s check; on a fresh machine a 3 min
# build): tests that run alone read it before their first run, and a
# measuring test must not pay for building it (a fresh clone's CI once
# failed copy-page-compressed, "the guest image is not built", and built it
# inside fast-start-check's first run)
guest-image: vbed
	@t=$$(date +%s); $(BUILD)/vbed image build && \
		echo "make: the guest image took $$(( $$(date +%s) - t )) s"

test: vbed check-asan
	$(MAKE) guest-image
	VBED=$(CURDIR)/$(BUILD)/vbed VBED_TEST_BIN_DIR=$(CURDIR)/$(BUILD)/tests \
		bash tests/run-tests.sh image guests experiment

# the seeds' studies in miniature alone (tests/experiment/seed-*.sh: seed 000's
# buffer-pool sweep, 001's filesystems x profiles, 002's tmpfs datadir); they
# are end-to-end tests, in `make test` and CI too
seeds: guest-image
	VBED=$(CURDIR)/$(BUILD)/vbed VBED_TEST_FILTER='^seed-' bash tests/run-tests.sh experiment

check: vbed test-bins layers
	VBED=$(CURDIR)/$(BUILD)/vbed VBED_TEST_BIN_DIR=$(CURDIR)/$(BUILD)/tests \
		bash tests/run-tests.sh unit cli report

# orchestrator/ is a stack of layers: includes and calls go downward only, no cycle
layers: $(BUILD)/libvbed.a $(BUILD)/obj/cli/main.o
	bash scripts/layers.sh --obj $(BUILD)/obj

# cli in one process, unit and report in another beside it: none of them
# measures or starts a guest, and each alone keeps one CPU of two busy (the
# unit and report suites' summary follows cli's)
ASAN_RUN = ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1 \
	VBED=$(CURDIR)/build/asan/vbed VBED_TEST_BIN_DIR=$(CURDIR)/build/asan/tests \
	bash tests/run-tests.sh
# the cli tests run beside unit + report, so that the two sides take about
# as long (CI of d19255d: cli 151 s; unit + report 112 s, then layers 37 s.
# CI of 6edbc50: cli 114 s; unit + report 116 s, then layers, bad-scenarios
# and man-page 18 s: the two that only read text went back to cli)
ASAN_CLI_BESIDE = ^(layers)$$
# the plain ./vbed first: cli/install.sh runs make install, which builds it
# -- inside the cli half (41 s of its 3 min) when make test had not yet;
# and make test then built it a second time after the suites (it had looked
# at its objects before they were there)
check-asan: vbed
	$(MAKE) BUILD=build/asan CFLAGS="-O1 -g -fno-omit-frame-pointer" \
		SANITIZE="-fsanitize=address,undefined -fno-sanitize-recover=all" test-bins
	@{ $(ASAN_RUN) unit report; u=$$?; VBED_TEST_FILTER='$(ASAN_CLI_BESIDE)' $(ASAN_RUN) cli; l=$$?; \
		[ $$u -eq 0 ] && [ $$l -eq 0 ]; } > build/asan/beside.out 2>&1 & beside=$$!; \
		VBED_TEST_EXCLUDE='$(ASAN_CLI_BESIDE)' $(ASAN_RUN) cli; c=$$?; wait $$beside; b=$$?; \
		cat build/asan/beside.out; [ $$c -eq 0 ] && [ $$b -eq 0 ]

# unit tests whose code runs in several threads at once
TSAN_TESTS := test_samples test_jobs test_speed

check-tsan:
	$(MAKE) BUILD=build/tsan CFLAGS="-O1 -g -fno-omit-frame-pointer" SANITIZE="-fsanitize=thread" \
		$(TSAN_TESTS:%=build/tsan/tests/%)
	TSAN_OPTIONS="halt_on_error=1 exitcode=66" VBED_TEST_BIN_DIR=$(CURDIR)/build/tsan/tests \
		VBED_TEST_FILTER='^($(subst $(space),|,$(TSAN_TESTS)))$$' bash tests/run-tests.sh unit

# libFuzzer targets: one per parser of outside input; seeds in tests/fuzz/<target>/
FUZZ_TARGETS := $(patsubst tests/fuzz/fuzz_%.c,%,$(wildcard tests/fuzz/fuzz_*.c))
FUZZ_SECONDS ?= 60
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all

FUZZ_BINS := $(FUZZ_TARGETS:%=build/fuzz/fuzz_%)
# the test and fuzz binaries' objects stay (ccache caches compiles, not links)
.SECONDARY: $(TEST_SRCS:tests/unit/%.c=$(BUILD)/unit/%.o) $(FUZZ_BINS:%=%.o)

fuzz-bins:
	$(MAKE) BUILD=build/fuzz CC=clang CFLAGS="-O1 -g -fno-omit-frame-pointer" \
		SANITIZE="-fsanitize=fuzzer-no-link $(FUZZ_SAN)" build/fuzz/libvbed.a
	$(MAKE) $(FUZZ_BINS)

# each target linked on its own (make -j2 links two at a time), by bfd: gold
# links it in half the time but warns a hundred lines a target of ASan's
# local symbols
build/fuzz/fuzz_%.o: tests/fuzz/fuzz_%.c tests/fuzz/fuzz.h $(HDRS)
	@mkdir -p build/fuzz
	$(VBED_CCACHE) clang $(ALL_CFLAGS) -O1 -g -fsanitize=fuzzer $(FUZZ_SAN) -Iorchestrator -c -o $@ $<
build/fuzz/fuzz_%: build/fuzz/fuzz_%.o build/fuzz/libvbed.a
	clang $(LDFLAGS) -pthread -fsanitize=fuzzer $(FUZZ_SAN) -o $@ $< \
		-Wl,--whole-archive build/fuzz/libvbed.a -Wl,--no-whole-archive $(LIBS)

# FUZZ_JOBS targets at a time (one core each)
FUZZ_JOBS ?= 1
fuzz: fuzz-bins
	FUZZ_JOBS=$(FUZZ_JOBS) bash tests/fuzz/run.sh $(FUZZ_SECONDS) $(FUZZ_TARGETS)

demo:
	bash scripts/demo.sh

bench: vbed
	bash tests/bench/bench.sh

install: vbed build/vbed.1 build/vbed.bash-completion build/vbed.bash-completion
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(DATADIR)/scenarios $(DESTDIR)$(DATADIR)/guest-images
	install -m 0755 vbed $(DESTDIR)$(BINDIR)/vbed
	install -d $(DESTDIR)$(MANDIR)
	install -m 0644 build/vbed.1 $(DESTDIR)$(MANDIR)/vbed.1
	install -d $(DESTDIR)$(COMPLETIONDIR)
	install -m 0644 build/vbed.bash-completion $(DESTDIR)$(COMPLETIONDIR)/vbed
	install -m 0644 scenarios/*.ini $(DESTDIR)$(DATADIR)/scenarios/
	cp -R guest-images/. $(DESTDIR)$(DATADIR)/guest-images/
	install -d $(DESTDIR)$(DATADIR)/scripts
	install -m 0755 scripts/install-deps.sh scripts/start-daemons.sh $(DESTDIR)$(DATADIR)/scripts/

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/vbed $(DESTDIR)$(MANDIR)/vbed.1 $(DESTDIR)$(COMPLETIONDIR)/vbed
	rm -rf $(DESTDIR)$(DATADIR)

# the key reference in docs/keys.md comes from the key table
readme-keys: vbed
	./vbed help keys --markdown > build/keys.md
	awk 'BEGIN{skip=0} /<!-- keys:begin -->/{print; while ((getline l < "build/keys.md") > 0) print l; skip=1; next} /<!-- keys:end -->/{skip=0} !skip' docs/keys.md > build/keys-doc.md
	mv build/keys-doc.md docs/keys.md

clean:
	rm -rf build vbed
