# One command each: `make run` shows linkpeek working on a local sample site (no
# internet needed), `make run URL=…` fetches a preview, `make test` runs every
# test, `make bench` runs the benchmarks. Each installs what a fresh Debian 12
# machine with Swift lacks first.

SWIFT ?= swift
PYTHON ?= python3
# neovim and emacs-nox: the editor plugin tests (make test-editors); Node 20,
# for the VS Code extension's tests, comes with the machine (`node --version`).
# openssl, nginx: the TLS and HTTP/2 tests (issue 11).
# libvips: images (getMedia, thumbnails); libvips-tools: vipsthumbnail, to generate test fixtures.
# libhiredis-dev, zlib1g-dev: fleet mode's Redis client and entry compression; redis-server: the fleet tests' own Redis (issue 23).
APT_PACKAGES := libcurl4-openssl-dev libxml2-dev libsqlite3-dev libvips-dev libvips-tools pkg-config openssl nginx neovim emacs-nox libhiredis-dev zlib1g-dev redis-server
BIN := .build/debug/linkpeek
URL ?=

.PHONY: deps build release run test test-swift test-integration test-editors fuzz bench clean

## deps: install the system packages and Python modules the build and tests need.
deps:
	@missing=""; for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq $$missing; \
	fi
	@$(PYTHON) -c 'import pytest, jsonschema, brotli' 2>/dev/null || $(PYTHON) -m pip install -q pytest jsonschema brotli

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

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
test: test-swift test-integration test-editors

# Serially: the in-process daemon tests drive real pipes with bounded waits,
# and on a 2-core machine parallel suites starve each other into timeouts.
test-swift: build
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --no-parallel

test-integration: build
	LINKPEEK_BIN=$(BIN) $(PYTHON) -m pytest -q Tests/integration

## test-editors: the Neovim plugin (nvim --headless), linkpeek.el (emacs
## --batch, ERT) and the VS Code extension (node --test, vscode stubbed), each
## against the real daemon and a loopback server; the editors/README.md snippets.
test-editors: build
	LINKPEEK_BIN=$(BIN) $(PYTHON) -m pytest -q Tests/editors

## fuzz: every fuzzer for FUZZ_SECONDS each (default 120; `make test` runs them for 4 s each).
## FUZZ_SEED=S reproduces a run; failing inputs are saved under Tests/fuzz/failures/.
FUZZ_SECONDS ?= 120
fuzz: build
	LINKPEEK_BIN=$(BIN) $(PYTHON) Tests/fuzz/fuzz.py all --seconds $(FUZZ_SECONDS) $(if $(FUZZ_SEED),--seed $(FUZZ_SEED))

## bench: the benchmarks, side by side with curl, vipsthumbnail and
## ImageMagick (not part of `make test`; ImageMagick is installed for it only).
## Each run prints its table and whether its targets were met; a miss does
## not stop the others. The shaped link needs root (network namespace, tc).
bench: release
	@for p in nginx iproute2 imagemagick libvips-tools; do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then apt-get update -qq && apt-get install -y -qq $$missing; fi
	-LINKPEEK_BIN=.build/release/linkpeek $(PYTHON) Benchmarks/bench_fetch.py --rounds 5
	-LINKPEEK_BIN=.build/release/linkpeek $(PYTHON) Benchmarks/bench_fetch.py --rounds 5 --server nginx
	-LINKPEEK_BIN=.build/release/linkpeek $(PYTHON) Benchmarks/bench_fetch.py --rounds 5 --server nginx --link 1gbit
	-LINKPEEK_BIN=.build/release/linkpeek $(PYTHON) Benchmarks/bench_daemon.py
	-LINKPEEK_BIN=.build/release/linkpeek $(PYTHON) Benchmarks/bench_lsp.py
	-LINKPEEK_BIN=.build/release/linkpeek $(PYTHON) Benchmarks/bench_parse.py
	-LINKPEEK_BIN=.build/release/linkpeek $(PYTHON) Benchmarks/bench_burst.py
	-LINKPEEK_BIN=.build/release/linkpeek $(PYTHON) Benchmarks/bench_cache.py
	-LINKPEEK_BIN=.build/release/linkpeek $(PYTHON) Benchmarks/bench_images.py
	-LINKPEEK_BIN=.build/release/linkpeek $(PYTHON) Benchmarks/bench_fleet.py

clean:
	rm -rf .build
