# One command each: `make run URL=…` fetches a preview, `make test` runs every
# test, `make bench` runs the benchmarks. Each installs what a fresh Debian 12
# machine with Swift lacks first.

SWIFT ?= swift
PYTHON ?= python3
APT_PACKAGES := libcurl4-openssl-dev libxml2-dev libvips-dev libvips-tools pkg-config
BIN := .build/debug/linkpeek
URL ?= https://www.swift.org/

.PHONY: deps build release run test test-swift test-integration bench clean

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
	-LINKPEEK_BIN=.build/release/linkpeek $(PYTHON) Benchmarks/bench_images.py

clean:
	rm -rf .build
