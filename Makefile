# One command each: `make run` shows linkpeek working on a local sample site (no
# internet needed), `make run URL=…` fetches a preview, `make test` runs every
# test, `make bench` runs the benchmarks. Each installs what a fresh Debian 12
# machine with Swift lacks first.

SWIFT ?= swift
# The Python that makes the virtual environment; every Python step of the
# build, the demo and the tests runs the environment's own interpreter,
# never the system's (Debian's is externally managed, PEP 668, and its
# jsonschema is too old for protocol_schema.py).
HOST_PYTHON ?= python3
VENV := .venv
PYTHON := $(VENV)/bin/python
# Every suite (Swift, integration, editor, fuzz) runs in a network namespace
# with only loopback (Tests/sandbox.py): no test can reach the internet.
SANDBOX := $(PYTHON) Tests/sandbox.py
# Fixed seeds in `make test` (printed with every failure with the command
# that replays it); `make fuzz` picks a random one unless FUZZ_SEED is given.
TEST_SEED ?= 20261126
# A file that cannot be collected (or, under CI=1, skips as a whole) fails the
# run but does not hide the other files' results.
PYTEST := $(PYTHON) -m pytest -q --continue-on-collection-errors
# python3, python3-venv: the virtual environment for the test tools.
# neovim, emacs-nox, nodejs: the editor plugin tests (make test-editors).
# openssl, nginx: the TLS, proxy and HTTP/2 tests.
# libvips: images (getMedia, thumbnails); libvips-tools: vips and vipsthumbnail, to generate test fixtures.
# util-linux: unshare, for the tests' network namespace (essential, listed to say so).
APT_PACKAGES := libcurl4-openssl-dev libxml2-dev libsqlite3-dev libvips-dev libvips-tools pkg-config openssl nginx \
	neovim emacs-nox nodejs python3 python3-venv util-linux
# binutils (objdump, strip) and man-db: `make dist` and its test (`make test-dist`).
APT_PACKAGES += binutils man-db
# libhiredis-dev, zlib1g-dev: fleet mode's Redis client and entry compression; redis-server: the fleet tests' own Redis.
APT_PACKAGES += libhiredis-dev zlib1g-dev redis-server
# systemd: systemd-analyze, which checks the .deb's linkpeek-http.service (make test-dist).
APT_PACKAGES += systemd
BIN := .build/debug/linkpeek
URL ?=

# Release packaging: `make dist` writes the tarball and the .deb; the
# integration and editor suites run the binary unpacked from the tarball
# (DIST_BIN), which is what users install.
VERSION := $(shell sh scripts/dist.sh version)
DIST_NAME := linkpeek-$(VERSION)-linux-$(shell uname -m)
TARBALL := dist/$(DIST_NAME).tar.gz
DEB := dist/linkpeek_$(VERSION)_$(shell dpkg --print-architecture 2>/dev/null || uname -m).deb
RELEASE_BIN := .build/release/linkpeek
DIST_TEST_DIR := .build/dist-test
DIST_BIN := $(DIST_TEST_DIR)/$(DIST_NAME)/bin/linkpeek
PREFIX ?= /usr/local

.PHONY: deps venv build release dist unpacked install test-dist check-pristine run test test-swift test-integration test-editors fuzz bench clean

## deps: install the system packages (apt) the build and tests need, then the
## Python test tools into .venv/ (Tests/requirements.txt).
deps:
	@missing=""; for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		if [ "$$(id -u)" = 0 ]; then SUDO=""; \
		elif command -v sudo >/dev/null 2>&1; then SUDO="sudo"; \
		else echo "make deps: these Debian packages are missing and installing them needs root or sudo, which this user has neither of:$$missing"; exit 1; fi; \
		echo "installing:$$missing"; \
		$$SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
		$$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	fi
	@$(MAKE) --no-print-directory venv

## venv: the Python test tools in .venv/ (made once; again when Tests/requirements.txt changes).
venv: $(VENV)/.installed
$(VENV)/.installed: Tests/requirements.txt
	@# A half-made environment (ensurepip failed once here while other builds ran) is made again, once.
	@test -x $(VENV)/bin/pip || { rm -rf $(VENV); $(HOST_PYTHON) -m venv $(VENV); } || { rm -rf $(VENV); $(HOST_PYTHON) -m venv $(VENV); }
	$(PYTHON) -m pip install -q -r Tests/requirements.txt
	@touch $@

build: deps
	sh scripts/write-commit.sh
	$(SWIFT) build

## release: the release binary, with the Swift runtime and Foundation linked
## in: it needs no toolchain at run time, only Debian's own libraries.
# Only the shipped product: the test-only executables are built (debug) by test-swift.
release: deps
	sh scripts/write-commit.sh
	$(SWIFT) build -c release --static-swift-stdlib --product linkpeek

## dist: dist/linkpeek-VERSION-linux-ARCH.tar.gz (bin/, share/man, share/
## completions, share/linkpeek/editors, README.md, LICENSE, Package.resolved) and
## dist/linkpeek_VERSION_ARCH.deb (the same files in Debian's places).
dist: release
	rm -rf dist && mkdir -p dist
	sh scripts/dist.sh tree $(RELEASE_BIN) dist/$(DIST_NAME)
	sh scripts/dist.sh tarball dist/$(DIST_NAME) $(TARBALL)
	sh scripts/dist.sh deb dist/$(DIST_NAME) $(DEB)
	rm -rf dist/$(DIST_NAME)
	@ls -l dist

# The tarball unpacked where the test suites find it (DIST_BIN).
unpacked: dist
	rm -rf $(DIST_TEST_DIR) && mkdir -p $(DIST_TEST_DIR)
	tar -xzf $(TARBALL) -C $(DIST_TEST_DIR)

## install: the tarball's layout under PREFIX (default /usr/local), e.g.
## `make install PREFIX=~/.local`; README and LICENSE go to share/doc/linkpeek.
install: release
	rm -rf .build/install-tree
	sh scripts/dist.sh tree $(RELEASE_BIN) .build/install-tree
	mkdir -p "$(DESTDIR)$(PREFIX)/share/doc/linkpeek"
	cp -R .build/install-tree/bin .build/install-tree/share "$(DESTDIR)$(PREFIX)/"
	cp .build/install-tree/README.md .build/install-tree/LICENSE .build/install-tree/Package.resolved "$(DESTDIR)$(PREFIX)/share/doc/linkpeek/"
	@echo "installed $(DESTDIR)$(PREFIX)/bin/linkpeek"

## test-dist: the tarball's binary from another directory with LD_LIBRARY_PATH
## empty: ldd names only Debian's libraries, the .deb's Depends match them,
## and the core integration tests (fetch, daemon, LSP hover, cache across
## processes, image) pass.
test-dist: unpacked
	LINKPEEK_BIN=$(abspath $(DIST_BIN)) LINKPEEK_DIST=$(abspath dist) LINKPEEK_SEED=$(TEST_SEED) $(SANDBOX) $(PYTEST) Tests/dist

## check-pristine: by hand, as root, not in `make test`: a fresh Debian 12 root
## (debootstrap) installs the .deb with apt-get and runs fetch, serve with an
## LSP hover, image and man there; then the same for the tarball.
check-pristine: dist
	sh scripts/check-pristine.sh $(abspath $(DEB)) $(abspath $(TARBALL))

## run: with no URL, a demo that needs no internet: a local sample site (an
## Open Graph article, a video page, a Shift_JIS page, a slow page), their
## terminal cards, the JSON, and a daemon session with progress and a hover.
## With URL, one preview of that page, e.g. `make run URL=https://example.com/`.
run: build
ifeq ($(strip $(URL)),)
	$(PYTHON) Tests/demo/run_demo.py --bin $(BIN)
else
	$(BIN) fetch --pretty "$(URL)"
endif

## test: every test: Swift unit and in-process tests, then the integration
## suites (real binary, loopback servers, the conformance corpus), then the
## editor plugins (Neovim, Emacs, VS Code) against the real daemon.
test: test-swift test-integration test-editors test-dist

# Serially: the in-process daemon tests drive real pipes with bounded waits,
# and on a 2-core machine parallel suites starve each other into timeouts.
# One build of everything (the binary, crash-guard-probe and the tests), not
# `build` and then --build-tests.
test-swift: deps
	sh scripts/write-commit.sh
	$(SWIFT) build --build-tests
	$(SANDBOX) $(SWIFT) test --skip-build --no-parallel

test-integration: unpacked
	LINKPEEK_BIN=$(DIST_BIN) LINKPEEK_SEED=$(TEST_SEED) $(SANDBOX) $(PYTEST) Tests/integration

## test-editors: the Neovim plugin (nvim --headless), linkpeek.el (emacs
## --batch, ERT) and the VS Code extension (node --test, vscode stubbed), each
## against the real daemon and a loopback server; the editors/README.md snippets.
test-editors: unpacked
	LINKPEEK_BIN=$(DIST_BIN) LINKPEEK_SEED=$(TEST_SEED) $(SANDBOX) $(PYTEST) Tests/editors

## fuzz: every fuzzer for FUZZ_SECONDS each (default 120; `make test` runs a fixed count of cases each,
## seed TEST_SEED). A random seed, printed first, unless FUZZ_SEED=S, which reproduces a run;
## failing inputs are saved under Tests/fuzz/failures/.
FUZZ_SECONDS ?= 120
fuzz: build
	LINKPEEK_BIN=$(BIN) $(SANDBOX) $(PYTHON) Tests/fuzz/fuzz.py all --seconds $(FUZZ_SECONDS) $(if $(FUZZ_SEED),--seed $(FUZZ_SEED))

## bench: the benchmarks, side by side with curl, a Python requests + lxml
## script, vipsthumbnail and ImageMagick (not part of `make test`; lxml and
## ImageMagick are installed for them only).
## Each run prints its table and whether its targets were met; a miss does
## not stop the others. The shaped link needs root (network namespace, tc).
bench: release
	@for p in nginx iproute2 imagemagick libvips-tools; do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then apt-get update -qq && apt-get install -y -qq $$missing; fi
	@$(PYTHON) -c 'import lxml, requests' 2>/dev/null || $(PYTHON) -m pip install -q lxml requests
	$(SWIFT) build -c release --product cache-time
	-LINKPEEK_BIN=.build/release/linkpeek $(PYTHON) Benchmarks/bench_fetch.py --rounds 5
	-LINKPEEK_BIN=.build/release/linkpeek $(PYTHON) Benchmarks/bench_fetch.py --rounds 5 --no-gzip
	-LINKPEEK_BIN=.build/release/linkpeek $(PYTHON) Benchmarks/bench_fetch.py --rounds 5 --link 1gbit
	-LINKPEEK_BIN=.build/release/linkpeek $(PYTHON) Benchmarks/bench_daemon.py
	-LINKPEEK_BIN=.build/release/linkpeek $(PYTHON) Benchmarks/bench_lsp.py
	-LINKPEEK_BIN=.build/release/linkpeek $(PYTHON) Benchmarks/bench_parse.py
	-LINKPEEK_BIN=.build/release/linkpeek $(PYTHON) Benchmarks/bench_burst.py
	-LINKPEEK_BIN=.build/release/linkpeek $(PYTHON) Benchmarks/bench_cache.py
	-LINKPEEK_BIN=.build/release/linkpeek $(PYTHON) Benchmarks/bench_images.py
	-LINKPEEK_BIN=.build/release/linkpeek $(PYTHON) Benchmarks/bench_fleet.py

clean:
	rm -rf .build dist $(VENV)
