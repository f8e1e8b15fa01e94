# The acceptance scenarios of issue 5 on the virtual board (tests/e2e/run.sh says what each proves):
#   make e2e      one PASS/FAIL line per scenario, then the latency figures; x86_64 runs the host
#                 build, then arm64 runs the Embedded firmware on the arm64 board when it is built
#                 (E2E_ARM64=0 skips it, E2E_ARM64=1 insists on it).
E2E_ARM64 ?= auto
# E2E_CAPTURE=0 leaves out scenario 1 (tests/vboard/capture.sh) when a caller has just run it.
E2E_CAPTURE ?= 1

.PHONY: e2e
e2e: build
	@status=0; \
	bash tests/e2e/run.sh --arch x86_64 $(if $(filter 0,$(E2E_CAPTURE)),--no-capture) || status=1; \
	if [ "$(E2E_ARM64)" = 1 ] || { [ "$(E2E_ARM64)" = auto ] && [ -x build/firmware/arm64/backdrop ]; }; then \
		bash tests/e2e/run.sh --arch arm64 --no-capture || status=1; \
	elif [ "$(E2E_ARM64)" = auto ]; then \
		echo "SKIP e2e (arm64): no build/firmware/arm64/backdrop (make firmware ARCH=arm64)"; \
	fi; \
	exit $$status

# `make test` runs this target itself, after the firmware is built (see the Makefile's test rule),
# so it is not added to TEST_EXTRA.
