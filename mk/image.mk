# The box's OS image (image-build/build.sh does the work; see its header and image-build/).
#   make image [BOARD=rpi4|qemu-arm64]   -> build/image/backdrop-$(BOARD).img.xz and .img.bmap
#   make image-test                      -> builds the rpi4 image and reads it without mounting
#   make image-boot-test                 -> boots the rpi4 image's kernel, initramfs and root on QEMU virt (TCG)
#   make image-unit-test                 -> the service unit's exposure score and facts (in make test)
# The image build and boot are not in `make test`: a cold build (15-19 min here) and a TCG boot
# (6-7 min) do not fit in make test's budget.
BOARD ?= rpi4

.PHONY: image image-test image-boot-test image-unit-test
image:
	@$(MAKE) --no-print-directory firmware ARCH=arm64
	@bash image-build/build.sh $(BOARD)

image-test:
	@$(MAKE) --no-print-directory image BOARD=rpi4
	@bash tests/image/inspect.sh build/image/backdrop-rpi4.img.xz

image-boot-test:
	@$(MAKE) --no-print-directory image BOARD=rpi4
	@bash tests/image/boot-qemu.sh build/image/backdrop-rpi4.img.xz

image-unit-test:
	@bash tests/image/unit-security.sh
