# The Embedded Swift firmware (scripts/firmware.sh does the work; see its header).
#   make firmware [ARCH=amd64|arm64]          -> build/firmware/$(ARCH)/backdrop and report.txt
#   make firmware-run ARCH=arm64 ARGS="demo --frames 30 --out out/arm.y4m"
#   make embedded-host                        -> Embedded build for this machine, runs its demo once
#   make firmware-test                        -> both arches, emulated arm64, byte-identity with the host build
#   make bench-arm64-count [CAMERA=640x480] [MODE=scaled-layer] [LOOK=sepia] [BENCH_ARGS="--depth 848x480 --registered"]
#                                             -> arm64 instructions per frame, per function
ARCH ?= amd64
ARGS ?= --help

.PHONY: firmware firmware-run firmware-test embedded-host bench-arm64-count
firmware:
	@bash scripts/firmware.sh build $(ARCH)

firmware-run:
	@bash scripts/firmware.sh run $(ARCH) $(ARGS)

embedded-host:
	@mkdir -p out
	@bash scripts/firmware.sh run amd64 demo --frames 30 --out out/embedded-demo.y4m

# Needs the host release build (the `build` target) to compare against.
firmware-test: build
	@bash scripts/firmware.sh test

# Counts, not times (bench/count-arm64.sh): a before/after that a busy machine does not blur.
bench-arm64-count:
	@bash bench/count-arm64.sh $(or $(CAMERA),640x480) $(or $(MODE),scaled-layer) $(if $(LOOK),--look $(LOOK)) $(BENCH_ARGS)
