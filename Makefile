# Quotaflow - one Makefile, no recursion.  `make help-targets` lists targets.
PREFIX ?= /usr/local
BUILD  ?= build
CC     ?= cc
CFLAGS ?= -O2 -g
WARN   := -std=c11 -Wall -Wextra -Werror -Wshadow -Wmissing-prototypes \
          -Wstrict-prototypes -Wvla -Wformat=2
CPPFLAGS += -I. -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE
PKGS   := yaml-0.1 jansson libgit2 sqlite3 libpcre2-8 libcrypto libssl libmicrohttpd
TPKGS  := cmocka

# Install the missing Debian packages the goal needs (scripts/install-deps.sh
# groups: build, demo, test, check, lint, deb, bench), once, before
# anything needs pkg-config.
DEPS_GROUP := build
ifneq ($(filter demo,$(MAKECMDGOALS)),)
DEPS_GROUP := demo
endif
ifneq ($(filter test conformance,$(MAKECMDGOALS)),)
DEPS_GROUP := test
endif
ifneq ($(filter check fuzz,$(MAKECMDGOALS)),)
DEPS_GROUP := check
endif
ifneq ($(filter lint compdb format-check format,$(MAKECMDGOALS)),)
DEPS_GROUP := lint
endif
ifneq ($(filter deb deb-test,$(MAKECMDGOALS)),)
DEPS_GROUP := deb
endif
ifneq ($(filter bench,$(MAKECMDGOALS)),)
DEPS_GROUP := bench
endif
DEPS_OK := $(shell sh scripts/install-deps.sh --dry-run $(DEPS_GROUP) >/dev/null 2>&1 && echo yes)
ifneq ($(DEPS_OK),yes)
$(info quotaflow: installing missing $(DEPS_GROUP) dependencies (scripts/install-deps.sh $(DEPS_GROUP)))
$(shell sh scripts/install-deps.sh $(DEPS_GROUP) >&2)
endif

PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS))
PKG_LIBS   := $(shell pkg-config --libs $(PKGS)) -lm -pthread
T_CFLAGS   := $(shell pkg-config --cflags $(TPKGS) 2>/dev/null)
T_LIBS     := $(shell pkg-config --libs $(TPKGS) 2>/dev/null)

SCHEMA_SRC := $(sort $(wildcard schemas/*.json))
GEN_SCHEMAS := $(BUILD)/gen/schemas_data.c
SRC  := $(sort $(wildcard core/*.c compiler/*.c runtime/*.c audit/*.c))
OBJ  := $(SRC:%.c=$(BUILD)/%.o) $(if $(SCHEMA_SRC),$(BUILD)/gen/schemas_data.o)
TSRC := $(sort $(wildcard tests/unit/test_*.c))
TBIN := $(TSRC:tests/unit/%.c=$(BUILD)/tests/%)
FUZZ_SRC := $(sort $(wildcard fuzz/fuzz_*.c))
FUZZ_SECONDS ?= 30

# Quiet build lines (`  CC  build/core/fs.o`); `make V=1` shows the commands.
ifeq ($(V),1)
Q   :=
say := @true
else
Q   := @
say := @printf '  %-6s %s\n'
endif

all: $(BUILD)/quotaflow ## build build/quotaflow (the default)

$(BUILD)/%.o: %.c
	@mkdir -p $(@D)
	$(say) CC $@
	$(Q)$(CC) $(CPPFLAGS) $(WARN) $(CFLAGS) $(PKG_CFLAGS) -MMD -MP -c $< -o $@

# Built-in schemas: schemas/*.json compiled into the binary as strings.
$(GEN_SCHEMAS): $(SCHEMA_SRC) scripts/gen-schemas.sh
	@mkdir -p $(@D)
	$(say) GEN $@
	$(Q)sh scripts/gen-schemas.sh $(SCHEMA_SRC) > $@.tmp && mv $@.tmp $@

$(BUILD)/gen/schemas_data.o: $(GEN_SCHEMAS)
	$(say) CC $@
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(BUILD)/libqf.a: $(OBJ)
	$(say) AR $@
	$(Q)rm -f $@ && $(AR) rcs $@ $^

$(BUILD)/quotaflow: $(BUILD)/quotaflow.o $(BUILD)/libqf.a
	$(say) LINK $@
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(PKG_LIBS)

$(BUILD)/tests/%.o: tests/unit/%.c
	@mkdir -p $(@D)
	$(say) CC $@
	$(Q)$(CC) $(CPPFLAGS) $(WARN) -Wno-missing-prototypes $(CFLAGS) $(PKG_CFLAGS) $(T_CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/tests/%: $(BUILD)/tests/%.o $(BUILD)/libqf.a
	$(say) LINK $@
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(PKG_LIBS) $(T_LIBS)

FUZZ_NAMES := $(FUZZ_SRC:fuzz/fuzz_%.c=%)
REPLAY_BIN := $(FUZZ_NAMES:%=$(BUILD)/fuzz/replay_%)

$(BUILD)/fuzz/%.o: fuzz/%.c
	@mkdir -p $(@D)
	$(say) CC $@
	$(Q)$(CC) $(CPPFLAGS) $(WARN) -Wno-missing-prototypes $(CFLAGS) $(PKG_CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/fuzz/replay_%: $(BUILD)/fuzz/replay.o $(BUILD)/fuzz/fuzz_%.o $(BUILD)/libqf.a
	$(say) LINK $@
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(PKG_LIBS)

# Load client of the controller suites and of the benchmark.
CTL_LOAD := $(BUILD)/tests/ctl_load
$(CTL_LOAD): tests/controller/ctl_load.c $(BUILD)/libqf.a
	@mkdir -p $(@D)
	$(say) LINK $@
	$(Q)$(CC) $(CPPFLAGS) $(WARN) $(CFLAGS) $(PKG_CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libqf.a $(PKG_LIBS)

test: $(BUILD)/quotaflow $(TBIN) $(REPLAY_BIN) $(CTL_LOAD) conformance ## unit, e2e, CLI-doc, webhook, controller, fuzz-corpus and conformance tests
	@sh tests/run-unit.sh $(TBIN)
	@QF=$(BUILD)/quotaflow sh tests/e2e/run.sh
	@QF=$(BUILD)/quotaflow sh tests/e2e/check-cli-doc.sh
	@QF=$(BUILD)/quotaflow sh tests/webhook/run.sh
	@sh tests/gitops/run.sh
	@sh tests/e2e/check-rules-doc.sh
	@sh tests/e2e/check-docs-local.sh
	@QF=$(BUILD)/quotaflow CTL_LOAD=$(CTL_LOAD) sh tests/controller/run.sh
	@QF=$(BUILD)/quotaflow sh tests/e2e/git.sh
	@QF=$(BUILD)/quotaflow sh tests/e2e/audit-html.sh
	@QF=$(BUILD)/quotaflow sh tests/e2e/demo.sh
	@QF=$(BUILD)/quotaflow sh tests/e2e/man.sh
	@QF=$(BUILD)/quotaflow sh tests/e2e/tutorial.sh
	@QF=$(BUILD)/quotaflow sh tests/e2e/audit-tamper.sh
	@QF=$(BUILD)/quotaflow sh tests/e2e/audit-stream.sh
	@QF=$(BUILD)/quotaflow sh tests/e2e/audit-first-load.sh
	@QF=$(BUILD)/quotaflow sh tests/e2e/audit-big-list.sh
	@QF=$(BUILD)/quotaflow sh tests/e2e/audit-big-yaml.sh
	@for n in $(FUZZ_NAMES); do $(BUILD)/fuzz/replay_$$n fuzz/corpus/$$n || exit 1; done
	@BUILD=$(BUILD) sh tests/check-timeouts.sh

# Kueue conformance cases (tests/conformance/README.md): a small comparator
# reads what `quotaflow simulate` wrote.  The runner must fail, never skip,
# when simulate is broken: checked with a binary whose every command fails.
CONFORM := $(BUILD)/tests/conform
$(CONFORM): tests/conformance/conform.c $(BUILD)/libqf.a
	@mkdir -p $(@D)
	$(say) LINK $@
	$(Q)$(CC) $(CPPFLAGS) $(WARN) $(CFLAGS) $(PKG_CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libqf.a $(PKG_LIBS)

conformance: $(BUILD)/quotaflow $(CONFORM) ## Kueue conformance cases through simulate
	@QF=$(BUILD)/quotaflow CONFORM=$(CONFORM) sh tests/conformance/run.sh
	@if QF=/bin/false CONFORM=$(CONFORM) sh tests/conformance/run.sh \
		>/dev/null 2>&1; then \
		echo "conformance: run.sh passed with a broken simulate"; \
		exit 1; fi
.PHONY: conformance

check: ## the tests under ASan+UBSan (clang, build/check)
	$(MAKE) BUILD=build/check CC=clang \
	  CFLAGS="-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all" \
	  LDFLAGS="-fsanitize=address,undefined" \
	  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
	  UBSAN_OPTIONS=print_stacktrace=1 test

# libFuzzer build: the library again with fuzzer instrumentation, one
# binary per target, each run for FUZZ_SECONDS on a scratch corpus copy.
FZ := build/fuzzer
fuzz: ## each libFuzzer target for FUZZ_SECONDS (30)
	$(MAKE) BUILD=$(FZ) CC=clang CFLAGS="-O1 -g -fsanitize=fuzzer-no-link,address,undefined" $(FZ)/libqf.a
	@for n in $(FUZZ_NAMES); do \
	  clang $(CPPFLAGS) -O1 -g -fsanitize=fuzzer,address,undefined $(PKG_CFLAGS) \
	    fuzz/fuzz_$$n.c $(FZ)/libqf.a $(PKG_LIBS) -o $(FZ)/fuzz_$$n || exit 1; \
	  rm -rf $(FZ)/corpus_$$n && mkdir -p $(FZ)/corpus_$$n && cp fuzz/corpus/$$n/* $(FZ)/corpus_$$n/ 2>/dev/null; \
	  (cd $(FZ) && ./fuzz_$$n -max_total_time=$(FUZZ_SECONDS) -timeout=20 -max_len=65536 corpus_$$n) || exit 1; \
	done

bench: $(BUILD)/quotaflow ## benchmarks (docs/performance.md)
	sh bench/run.sh $(BUILD)/quotaflow

golden: $(BUILD)/quotaflow ## rewrite the golden outputs (review the diff)
	sh tests/golden/update.sh $(BUILD)/quotaflow

demo: $(BUILD)/quotaflow ## the whole story on the bundled examples
	@sh scripts/demo.sh $(BUILD)/quotaflow

# the man page, made from the binary's help texts (scripts/mkman.sh)
$(BUILD)/quotaflow.1: $(BUILD)/quotaflow scripts/mkman.sh
	sh scripts/mkman.sh $(BUILD)/quotaflow >$@.tmp && mv $@.tmp $@

install: $(BUILD)/quotaflow $(BUILD)/quotaflow.1 ## install the binary and its man page into DESTDIR + PREFIX (/usr/local)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 $(BUILD)/quotaflow $(DESTDIR)$(PREFIX)/bin/quotaflow
	install -m 644 $(BUILD)/quotaflow.1 $(DESTDIR)$(PREFIX)/share/man/man1/quotaflow.1

# Debian package (dpkg-deb; Depends from dpkg-shlibdeps), and its test in a
# clean bookworm root (debootstrap, downloads: not part of `make test`).
deb: $(BUILD)/quotaflow $(BUILD)/quotaflow.1 ## build/quotaflow_VERSION_ARCH.deb, Depends derived
	@sh scripts/mkdeb.sh $(BUILD)/quotaflow $(BUILD)

deb-test: deb ## install the .deb in a fresh debootstrap root and run it (root, network)
	@sh scripts/deb-test.sh $$(ls -t $(BUILD)/quotaflow_*.deb | head -1)

clean: ## remove build/
	rm -rf build

format: ## clang-format every C file in place
	clang-format -i $$(git ls-files '*.c' '*.h')

format-check: ## fail when a C file is not clang-formatted
	clang-format --dry-run -Werror $$(git ls-files '*.c' '*.h')

compdb: ## compile_commands.json (bear)
	bear -- $(MAKE) -B

# Static analysis: formatting, clang-tidy, cppcheck, then structural greps.
lint: compdb ## format-check, clang-tidy, cppcheck, structural greps
	$(MAKE) format-check
	clang-tidy -p . --quiet $$(git ls-files '*.c' | grep -v '^tests/\|^fuzz/')
	cppcheck --project=compile_commands.json --enable=warning,performance,portability \
	  --library=scripts/cppcheck-jansson.cfg \
	  --inline-suppr --suppress=missingIncludeSystem --error-exitcode=1 -q
	sh scripts/lint-greps.sh

# The targets above with a `## ` comment, one line each.
help-targets: ## this list
	@sed -n 's/^\([a-z][a-z-]*\):.*## \(.*\)/\1\t\2/p' Makefile | \
	  awk -F'\t' '{ printf "  %-14s %s\n", $$1, $$2 }'

.PHONY: all test check fuzz bench golden demo install deb deb-test clean format format-check compdb lint help-targets
.SECONDARY:
.DELETE_ON_ERROR:
-include $(OBJ:.o=.d) $(BUILD)/quotaflow.d $(TBIN:=.d) $(BUILD)/fuzz/*.d
