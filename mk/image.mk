# The box's OS image (image-build/build.sh does the work; see its header and image-build/).
#   make image [BOARD=rpi4|qemu-arm64]   -> build/image/backdrop-$(BOARD).img.xz and .img.bmap
#   make image-test                      -> builds the rpi4 image and reads it without mounting (in make test)
#   make image-boot-test                 -> boots the qemu-arm64 image on QEMU virt (TCG): READY, STATUS,
#                                           a written-back photo, the watchdog, no failed unit, the boot
#                                           partition's import (in make test); IMAGE_BOOT_STICK=1 adds a
#                                           QMP hot-plugged USB stick (about 2 min more)
#   make image-repro [BOARD=rpi4]        -> a cold build in a cache of its own, timed, compared file by
#                                           file with the shared cache's build of the same inputs
#   make powercut [POWERCUT_TRIALS=200]  -> QEMU killed during a stick import, the data partition checked
#   make powercut-test                   -> the same, 20 trials (in make test)
#   make image-unit-test                 -> the units' exposure scores and facts (in make test)
#   make image-reboot-test [REBOOTS=5]   -> the rpi4 card booted REBOOTS times on QEMU virt with the RTC
#                                           at 1970: one journal directory, the clock never going back
#                                           (not in make test: 2-8 min a boot here, by host load)
#   make image-raspi4b-test              -> boots the rpi4 image's own kernel, DTB and initramfs on QEMU's
#                                           raspi4b (Debian 13's QEMU, its own cached root): the SD card,
#                                           the root by PARTUUID, systemd's start (in make test)
# The image is cached by a hash of all its inputs (image-build/build.sh): unchanged inputs take about
# a second, and image-test 16-40 s more to read the image; a new firmware binary, unit or config
# re-assembles the rpi4 image from the cached root (3-6 min here under load), which image-test in
# make test pays once per change. image-boot-test's qemu-arm64 image is kept uncompressed
# (boards/qemu-arm64/image-format), so its re-assembly is about 40 s, and the boot is bounded by
# IMAGE_BOOT_TIMEOUT (QEMU killed, the serial log shown).
BOARD ?= rpi4

POWERCUT_TRIALS ?= 200
IMAGE_BOOT_STICK ?= 0
IMAGE_BOOT_TIMEOUT ?= 1200
IMAGE_RASPI4B_TIMEOUT ?= 600

REBOOTS ?= 5

.PHONY: image image-test image-boot-test image-raspi4b-test image-unit-test image-repro powercut powercut-test image-reboot-test
image:
	@$(MAKE) --no-print-directory firmware ARCH=arm64
	@bash image-build/build.sh $(BOARD)

image-test:
	@$(MAKE) --no-print-directory image BOARD=rpi4
	@bash tests/image/inspect.sh build/image/backdrop-rpi4.img.xz

# vboard/deps.sh: QEMU, the cross compiler and linux-source-6.1 the board's modules are built from.
image-boot-test: build
	@bash vboard/deps.sh
	@$(MAKE) --no-print-directory image BOARD=qemu-arm64
	@BOOT_TEST_STICK=$(IMAGE_BOOT_STICK) bash tests/image/boot-qemu.sh build/image/backdrop-qemu-arm64.img $(IMAGE_BOOT_TIMEOUT)

image-reboot-test:
	@$(MAKE) --no-print-directory image BOARD=rpi4
	@bash tests/image/reboot-qemu.sh build/image/backdrop-rpi4.img.xz $(REBOOTS) 1200
# tests/image/raspi4b-boot.sh: the emulation-only DTB changes and what raspi4b lacks are in its header.
# Cold, its QEMU root (mmdebstrap, network bound) costs 2-3.5 min once; then each run 2-3 min here
# (unpacking 4-15 s, QEMU to systemd's start 106-161 s), the image itself cached by image-test before it.
image-raspi4b-test:
	@$(MAKE) --no-print-directory image BOARD=rpi4
	@bash tests/image/raspi4b-boot.sh build/image/backdrop-rpi4.img.xz $(IMAGE_RASPI4B_TIMEOUT)

image-unit-test:
	@bash tests/image/unit-security.sh

image-repro:
	@$(MAKE) --no-print-directory firmware ARCH=arm64
	@bash tests/image/repro.sh $(BOARD)

# Power cuts during a stick import (tests/image/powercut.py): one boot, the VM saved just before
# the import, every trial a snapshot restore and a cut (3-5 s a trial here, plus 40-140 s for the
# boot); powercut-test is the short run in make test.
POWERCUT_TEST_TRIALS ?= 20
powercut: build
	@bash vboard/deps.sh
	@$(MAKE) --no-print-directory image BOARD=qemu-arm64
	@python3 tests/image/powercut.py build/image/backdrop-qemu-arm64.img $(POWERCUT_TRIALS)

powercut-test: build
	@bash vboard/deps.sh
	@$(MAKE) --no-print-directory image BOARD=qemu-arm64
	@python3 tests/image/powercut.py build/image/backdrop-qemu-arm64.img $(POWERCUT_TEST_TRIALS)
