# The box's OS image (image-build/build.sh does the work; see its header and image-build/).
#   make image [BOARD=rpi4|qemu-arm64]   -> build/image/backdrop-$(BOARD).img.xz and .img.bmap
#   make image-test                      -> builds the rpi4 image and reads it without mounting
#   make image-boot-test                 -> boots the qemu-arm64 image on QEMU virt (TCG): READY, STATUS,
#                                           a written-back photo, the watchdog, the boot partition's import,
#                                           a QMP hot-plugged USB stick
#   make powercut [POWERCUT_TRIALS=200]  -> QEMU killed during a stick import, the data partition checked
#   make image-unit-test                 -> the units' exposure scores and facts (in make test)
# The image build and boot are not in `make test`: a cold build (15-19 min here), a warm re-assembly
# after a unit or firmware change (5-10 min, mostly xz, under load) and a TCG boot (6-17 min under
# load) do not fit in make test's budget next to the kernel builds.
BOARD ?= rpi4

POWERCUT_TRIALS ?= 200

.PHONY: image image-test image-boot-test image-unit-test powercut
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

# Power cuts during a stick import (tests/image/powercut.sh): one kernel boot per trial, so not in
# make test (about 30-60 s a trial under TCG here).
powercut: build
	@$(MAKE) --no-print-directory image BOARD=qemu-arm64
	@bash tests/image/powercut.sh build/image/backdrop-qemu-arm64.img.xz $(POWERCUT_TRIALS)
