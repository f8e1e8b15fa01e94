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

.PHONY: demo test deps build unit cli-test devices-test vboard-x86_64 bench-libyuv
deps:
	@bash scripts/deps.sh

build: deps
	@bash scripts/build-info.sh
	$(RELEASE)

# README command 1: synthetic scene -> out/demo.y4m, with the latency summary.
demo: build
	@mkdir -p out
	$(BACKDROP) demo --frames 300 --out out/demo.y4m

unit: deps
	@bash scripts/build-info.sh
	$(SWIFT) build $(SWIFT_FLAGS) --build-tests
	$(SWIFT) test $(SWIFT_FLAGS) --skip-build

# Command-level behaviour of the real executable: exit codes and messages for bad input.
cli-test: build
	bash tests/cli.sh $(BACKDROP)

# The compose stage against a libyuv chain doing the same work, measured in one invocation
# (bench/compare-libyuv.sh; installs libyuv-dev, a bench-only dependency, when missing).
bench-libyuv: build
	bash bench/compare-libyuv.sh $(BACKDROP) $(or $(FRAMES),60)

# The device adapters against real kernel drivers on the virtual board (x86_64 guest running the
# host-built test bundles: the debug one where a suite injects faults, which exist in debug builds
# only, the release one where a suite checks the display against the CPU path), and the shim
# compiled against libgpiod 2.x headers.
devices-test: deps vboard-x86_64
	bash tests/gpiod2-compile.sh
	bash tests/vboard/capture.sh
	bash tests/vboard/scanout.sh
	bash tests/vboard/buttons.sh

vboard-x86_64:
	@bash vboard/build.sh x86_64

# The README's two commands on a new minimal Debian 12 root (mmdebstrap), caches empty; as long as a
# cold CI run, so not part of `make test`. See tests/clean-root/run.sh.
.PHONY: clean-root-test
clean-root-test:
	bash tests/clean-root/run.sh

include $(wildcard mk/*.mk)

# README command 2: every test. Unit tests, the command-line checks, the golden outputs (checksums of
# the mattes and composites, tests/golden), the virtual board's
# self-test (x86_64 and arm64) and its launcher's failure reports, the device adapters on it, the Embedded builds (the host binary
# runs the demo; the arm64 one is compared byte for byte under qemu-aarch64), then the
# end-to-end scenarios, which run the arm64 firmware on the arm64 board too (without their scenario 1,
# tests/vboard/capture.sh: devices-test has run it, and a second run costs over a minute of a warm run). image-test builds the
# rpi4 image (cached by its inputs) and reads it without mounting; image-raspi4b-test boots that image's
# own kernel, DTB and initramfs on QEMU's raspi4b to systemd's start; image-boot-test boots the qemu-arm64
# image under QEMU TCG to READY and through a watchdog restart. import-board-test hot-plugs hostile USB
# sticks into the x86_64 board while the booth runs.
#
# The stages run in two lanes at once, each lane one stage after another: the host build with the
# x86_64 board, and the firmware, the image and the arm64 board. Most of a run is boards going
# through their scenarios on the clock (countdowns, held buttons, unplugs, boots), which leaves CPU
# to spare: one stage after another took about 34 minutes warm, the two lanes 14 (835 s). A lane's lines are prefixed with
# its name; a failing lane does not stop the other, and make test fails if either did. The packages
# both lanes need are installed first, one apt at a time, and the boards' kernels build in the
# background from the start (scripts/board-prebuild.sh says why); a failing run ends that build too.
TEST_HOST_LANE := unit cli-test golden-test looks-cli-test cameras-test soak-test import-crash-test import-stop-test sanitize-test fuzz-test \
	runtime-test board-boost vboard-test-x86_64 vboard-launcher-test devices-test e2e-x86_64
TEST_ARM64_LANE := firmware-test image-unit-test image-test image-raspi4b-test board-boost vboard-test-arm64 image-boot-test \
	powercut-test e2e-arm64 import-board-test vboard-record-test
.PHONY: test-deps test-lanes board-boost
test: test-deps
	@bash scripts/board-prebuild.sh start
	@status=0; $(MAKE) --no-print-directory test-lanes || status=$$?; bash scripts/board-prebuild.sh stop; exit $$status

# Each lane's first board stage comes after this: from then on the lane would wait for the build.
board-boost:
	@bash scripts/board-prebuild.sh boost

test-deps: deps import-crash-deps
	@bash image-build/deps.sh
	@bash tests/image/raspi4b-boot.sh --deps
	@bash scripts/firmware.sh deps amd64
	@bash scripts/firmware.sh deps arm64 >/dev/null

# Both lanes use the host release build: it is made once before they start.
test-lanes: build
	@set -o pipefail; \
	( $(MAKE) --no-print-directory -j1 $(TEST_HOST_LANE) 2>&1 | sed -u 's/^/[host] /' ) & host=$$!; \
	( $(MAKE) --no-print-directory -j1 $(TEST_ARM64_LANE) 2>&1 | sed -u 's/^/[arm64] /' ) & arm64=$$!; \
	status=0; \
	if wait $$host; then echo "make test: host lane passed"; else echo "make test: host lane FAILED"; status=1; fi; \
	if wait $$arm64; then echo "make test: arm64 lane passed"; else echo "make test: arm64 lane FAILED"; status=1; fi; \
	[ $$status = 0 ] && echo "make test: all stages passed"; exit $$status
