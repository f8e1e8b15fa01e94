# The Embedded Swift firmware (scripts/firmware.sh does the work; see its header).
#   make firmware [ARCH=amd64|arm64]          -> build/firmware/$(ARCH)/backdrop and report.txt
#   make firmware-run ARCH=arm64 ARGS="demo --frames 30 --out out/arm.y4m"
#   make firmware-test                        -> both arches, emulated arm64, byte-identity with the host build
ARCH ?= amd64
ARGS ?= --help

.PHONY: firmware firmware-run firmware-test
firmware:
	@bash scripts/firmware.sh build $(ARCH)

firmware-run:
	@bash scripts/firmware.sh run $(ARCH) $(ARGS)

firmware-test:
	@bash scripts/firmware.sh test
