# libFuzzer over the inputs a user brings to the box: the config parser, a recording's settings
# reader, the PNG/JPEG decode + EXIF + prescale path of backdrops, and a USB stick's tree through
# the import into a data folder, a stick's .cube and looks files through their parsers, the fold and
# the apply, and a RealSense's calibration replies (Tests/Fuzz/BackdropFuzz: ImportHarness,
# LooksHarness, CalibrationHarness).
#   make fuzz [SECONDS=N]   each target for N seconds (default 60), new inputs kept in .build/fuzz/corpus
#   make fuzz-test          each target for 10,000 executions after its seeds and kept crash inputs
#   make fuzz-seeds         rewrites the seed corpora in tests/fuzz/corpus from code
# The fuzz build (.build/fuzz) is AddressSanitizer plus libFuzzer's coverage on every Swift module.
# swiftc's -sanitize=fuzzer links libFuzzer's main, which clashes with main.swift, so the driver
# library without main is linked whole and entered through LLVMFuzzerRunDriver instead.
# A crash writes tests/fuzz/crashes/TARGET-crash-*: fix it, then move the input to
# tests/fuzz/regressions/TARGET/, which every run replays first.
SECONDS ?= 60
FUZZ_RUNS ?= 10000
FUZZ_PATH := .build/fuzz
FUZZER_LIB = $(firstword $(wildcard /opt/swift/usr/lib/clang/*/lib/linux/libclang_rt.fuzzer_no_main-x86_64.a))
FUZZ_FLAGS = -c release --build-path $(FUZZ_PATH) --sanitize address \
	-Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp \
	-Xlinker --whole-archive -Xlinker $(FUZZER_LIB) -Xlinker --no-whole-archive -Xlinker -lstdc++
FUZZ_BIN := $(FUZZ_PATH)/release/BackdropFuzz

.PHONY: fuzz fuzz-test fuzz-build fuzz-seeds
fuzz-build: deps
	@test -n "$(FUZZER_LIB)" || { echo "fuzz: libclang_rt.fuzzer_no_main not found in the Swift toolchain"; exit 1; }
	nice $(SWIFT) build $(FUZZ_FLAGS) --product BackdropFuzz

fuzz: fuzz-build
	bash tests/fuzz/run.sh $(FUZZ_BIN) 1 -max_total_time=$(SECONDS)

fuzz-test: fuzz-build
	bash tests/fuzz/run.sh $(FUZZ_BIN) $(FUZZ_RUNS) -runs=$(FUZZ_RUNS)

fuzz-seeds: build
	.build/release/BackdropFuzz seeds tests/fuzz/corpus
