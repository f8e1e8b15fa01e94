# The few commands people type. Each target installs what it is missing first, so both README
# commands work on a fresh Debian 12 machine.
SHELL := /bin/bash
export PATH := /opt/swift/usr/bin:$(PATH)
SWIFT ?= swift
# One release configuration for the binary and the tests: the frame path is only representative
# optimised (the zero-allocation test needs it), and sharing it means one build, not two.
SWIFT_FLAGS := -c release -Xswiftc -enable-testing
RELEASE := $(SWIFT) build $(SWIFT_FLAGS)
BACKDROP := .build/release/backdrop

.PHONY: demo test deps build unit embedded-host cli-test
deps:
	@bash scripts/deps.sh

build: deps
	$(RELEASE)

# README command 1: synthetic scene -> out/demo.y4m, with the latency summary.
demo: build
	@mkdir -p out
	$(BACKDROP) demo --frames 300 --out out/demo.y4m

unit: deps
	$(SWIFT) build $(SWIFT_FLAGS) --build-tests
	$(SWIFT) test $(SWIFT_FLAGS) --skip-build

# Command-level behaviour of the real executable: exit codes and messages for bad input.
cli-test: build
	bash tests/cli.sh $(BACKDROP)

include $(wildcard mk/*.mk)

# README command 2: every test. Unit tests, the command-line checks, the Embedded builds
# (host binary runs the demo; arm64 binary compared byte for byte under qemu-aarch64) and the
# virtual board.
test: unit cli-test $(TEST_EXTRA)
	@echo "make test: all stages passed"
