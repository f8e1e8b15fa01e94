# The box's OS image (image-build/build.sh does the work; see its header and image-build/).
#   make image [BOARD=rpi4|qemu-arm64]   -> build/image/backdrop-$(BOARD).img.xz and .img.bmap
#   make image-test                      -> builds the rpi4 image and reads it without mounting (in make test)
#   make image-boot-test                 -> boots the qemu-arm64 image on QEMU virt (TCG): READY, STATUS,
#                                           a written-back photo, the watchdog, the boot partition's import,
#                                           a QMP hot-plugged USB stick
#   make image-repro [BOARD=rpi4]        -> a cold build in a cache of its own, timed, compared file by
#                                           file with the shared cache's build of the same inputs
#   make powercut [POWERCUT_TRIALS=200]  -> QEMU killed during a stick import, the data partition checked
#   make image-unit-test                 -> the units' exposure scores and facts (in make test)
# The image is cached by a hash of all its inputs (image-build/build.sh): unchanged inputs take about
# a second, and image-test 16-40 s more to read the image; a new firmware binary, unit or config
# re-assembles the rpi4 image from the cached root (3-6 min here under load), which image-test in
# make test pays once per change. The boot test is not in make test: a TCG boot to READY alone is
# 80-163 s here, the whole test 6.5 min at best under load (up to 17), and it needs the qemu-arm64
# image re-assembled too (5-6.5 min), together more than make test's remaining budget.
BOARD ?= rpi4

POWERCUT_TRIALS ?= 200

.PHONY: image image-test image-boot-test image-unit-test image-repro powercut
image:
	@$(MAKE) --no-print-directory firmware ARCH=arm64
	@bash image-build/build.sh $(BOARD)

image-test:
	@$(MAKE) --no-print-directory image BOARD=rpi4
	@bash tests/image/inspect.sh build/image/backdrop-rpi4.img.xz

image-boot-test: build
	@$(MAKE) --no-print-directory image BOARD=qemu-arm64
	@bash tests/image/boot-qemu.sh build/image/backdrop-qemu-arm64.img.xz

image-unit-test:
	@bash tests/image/unit-security.sh

image-repro:
	@$(MAKE) --no-print-directory firmware ARCH=arm64
	@bash tests/image/repro.sh $(BOARD)

# Power cuts during a stick import (tests/image/powercut.sh): one kernel boot per trial, so not in
# make test (about 30-60 s a trial under TCG here).
powercut: build
	@$(MAKE) --no-print-directory image BOARD=qemu-arm64
	@bash tests/image/powercut.sh build/image/backdrop-qemu-arm64.img.xz $(POWERCUT_TRIALS)
