# The box's OS image (image-build/build.sh does the work; see its header and image-build/).
#   make image [BOARD=rpi4|qemu-arm64]   -> build/image/backdrop-$(BOARD).img.xz and .img.bmap
#   make image-test                      -> builds the rpi4 image and reads it without mounting
#   make image-unit-test                 -> the service unit's exposure score and facts (in make test)
# The image build is not in `make test`: a cold build takes longer than make test's budget allows.
BOARD ?= rpi4

.PHONY: image image-test image-unit-test
image:
	@$(MAKE) --no-print-directory firmware ARCH=arm64
	@bash image-build/build.sh $(BOARD)

image-test:
	@$(MAKE) --no-print-directory image BOARD=rpi4
	@bash tests/image/inspect.sh build/image/backdrop-rpi4.img.xz

image-unit-test:
	@bash tests/image/unit-security.sh
