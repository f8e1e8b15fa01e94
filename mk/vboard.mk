# The virtual board (issue 3): a QEMU board with vivid, v4l2loopback, vkms, gpio-sim and USB hotplug.
#   make vboard [ARCH=arm64]          build (or reuse from /var/cache/backdrop-vboard) the board
#   make vboard-test [ARCH=arm64]     boot it and run the guest self-test
#   make vboard-test-all              both architectures (make test runs vboard-test-x86_64 and
#                                     vboard-test-arm64, one in each lane)
#   make vboard-launcher-test         the launcher's exit status, time-outs and hang reports (x86_64)
#   make vboard-soak [ARCH=] [RUNS=10]              the self-test RUNS times in a row, counted
#   make vboard-stress-display [ARCH=] [ROUNDS=100] modeset + writeback ROUNDS times in one board
# ARCH is shared with mk/firmware.mk, which calls x86_64 "amd64" (Debian's name); both mean the same board.
VBOARD_ARCH = $(patsubst amd64,x86_64,$(or $(ARCH),x86_64))

.PHONY: vboard vboard-test vboard-test-all vboard-test-x86_64 vboard-test-arm64 vboard-launcher-test
vboard:
	@bash vboard/build.sh $(VBOARD_ARCH)

vboard-test:
	@bash vboard/selftest --arch $(VBOARD_ARCH)

vboard-test-all: vboard-test-x86_64 vboard-test-arm64

vboard-test-x86_64 vboard-test-arm64:
	@bash vboard/selftest --arch $(patsubst vboard-test-%,%,$@)

vboard-launcher-test:
	@bash tests/vboard/launcher.sh

# Evidence for flakiness: RUNS self-tests in a row, and ROUNDS of modeset + writeback in one board.
RUNS ?= 10
ROUNDS ?= 100
.PHONY: vboard-soak vboard-stress-display
vboard-soak:
	@bash vboard/soak --arch $(VBOARD_ARCH) --runs $(RUNS)

vboard-stress-display:
	@bash vboard/stress-display --arch $(VBOARD_ARCH) --rounds $(ROUNDS)
