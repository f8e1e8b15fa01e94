# The virtual board (issue 3): a QEMU board with vivid, v4l2loopback, vkms, gpio-sim and USB hotplug.
#   make vboard [ARCH=arm64]          build (or reuse from /var/cache/backdrop-vboard) the board
#   make vboard-test [ARCH=arm64]     boot it and run the guest self-test
#   make vboard-test-all              both architectures, as `make test` runs it
# ARCH is shared with mk/firmware.mk, which calls x86_64 "amd64" (Debian's name); both mean the same board.
VBOARD_ARCH = $(patsubst amd64,x86_64,$(or $(ARCH),x86_64))

.PHONY: vboard vboard-test vboard-test-all
vboard:
	@bash vboard/build.sh $(VBOARD_ARCH)

vboard-test:
	@bash vboard/selftest --arch $(VBOARD_ARCH)

vboard-test-all:
	@bash vboard/selftest --arch x86_64
	@bash vboard/selftest --arch arm64
