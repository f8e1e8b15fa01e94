# The acceptance scenarios of issue 5 on the virtual board (tests/e2e/run.sh says what each proves):
#   make e2e      one PASS/FAIL line per scenario, then the latency figures; x86_64 runs the host
#                 build, then arm64 runs the Embedded firmware on the arm64 board when it is built
#                 (E2E_ARM64=0 skips it, E2E_ARM64=1 insists on it).
#   make e2e-x86_64, make e2e-arm64   one board each, without scenario 1 (tests/vboard/capture.sh):
#                 make test runs these in its lanes, after devices-test has run that scenario.
E2E_ARM64 ?= auto

.PHONY: e2e e2e-x86_64 e2e-arm64
e2e: build
	@status=0; \
	bash tests/e2e/run.sh --arch x86_64 || status=1; \
	if [ "$(E2E_ARM64)" = 1 ] || { [ "$(E2E_ARM64)" = auto ] && [ -x build/firmware/arm64/backdrop ]; }; then \
		bash tests/e2e/run.sh --arch arm64 --no-capture || status=1; \
	elif [ "$(E2E_ARM64)" = auto ]; then \
		echo "SKIP e2e (arm64): no build/firmware/arm64/backdrop (make firmware ARCH=arm64)"; \
	fi; \
	exit $$status

e2e-x86_64 e2e-arm64: build
	@bash tests/e2e/run.sh --arch $(patsubst e2e-%,%,$@) --no-capture
