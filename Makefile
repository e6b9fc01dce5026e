# One command each: `make run URL=…` fetches a preview, `make test` runs every
# test, `make bench` runs the benchmarks. Each installs what a fresh Debian 12
# machine with Swift lacks first.

SWIFT ?= swift
PYTHON ?= python3
APT_PACKAGES := libcurl4-openssl-dev libxml2-dev pkg-config openssl nginx
BIN := .build/debug/linkpeek
URL ?= https://www.swift.org/

.PHONY: deps build release run test test-swift test-integration fuzz bench clean

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

## run: fetch one preview, e.g. `make run URL=https://example.com/`.
run: build
	$(BIN) fetch --pretty "$(URL)"

## test: every test: Swift unit and in-process tests, then the integration
## suites (real binary, loopback servers, the conformance corpus).
test: test-swift test-integration

# Serially: the in-process daemon tests drive real pipes with bounded waits,
# and on a 2-core machine parallel suites starve each other into timeouts.
test-swift: build
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --no-parallel

test-integration: build
	LINKPEEK_BIN=$(BIN) $(PYTHON) -m pytest -q Tests/integration

## fuzz: every fuzzer for FUZZ_SECONDS each (default 120; `make test` runs them for 4 s each).
## FUZZ_SEED=S reproduces a run; failing inputs are saved under Tests/fuzz/failures/.
FUZZ_SECONDS ?= 120
fuzz: build
	LINKPEEK_BIN=$(BIN) $(PYTHON) Tests/fuzz/fuzz.py all --seconds $(FUZZ_SECONDS) $(if $(FUZZ_SEED),--seed $(FUZZ_SEED))

## bench: the benchmarks, side by side with curl (not part of `make test`).
## Each run prints its table and whether its targets were met; a miss does
## not stop the others. The shaped link needs root (network namespace, tc).
bench: release
	@for p in nginx iproute2; do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then apt-get update -qq && apt-get install -y -qq $$missing; fi
	-LINKPEEK_BIN=.build/release/linkpeek $(PYTHON) Benchmarks/bench_fetch.py --rounds 5
	-LINKPEEK_BIN=.build/release/linkpeek $(PYTHON) Benchmarks/bench_fetch.py --rounds 5 --server nginx
	-LINKPEEK_BIN=.build/release/linkpeek $(PYTHON) Benchmarks/bench_fetch.py --rounds 5 --server nginx --link 1gbit
	-LINKPEEK_BIN=.build/release/linkpeek $(PYTHON) Benchmarks/bench_daemon.py
	-LINKPEEK_BIN=.build/release/linkpeek $(PYTHON) Benchmarks/bench_parse.py
	-LINKPEEK_BIN=.build/release/linkpeek $(PYTHON) Benchmarks/bench_burst.py

clean:
	rm -rf .build
