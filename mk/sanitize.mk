# AddressSanitizer and UndefinedBehaviorSanitizer over the unit tests, the command-line checks and
# a demo, on a build of their own (--build-path .build/sanitize), so the ordinary build is untouched.
# That build also lays out frame memory guarded (-DBACKDROP_GUARD_PAGES: KernelIO's GuardedPlanes):
# every matte plane ends against an inaccessible page, so a store past one, which ASan cannot see
# inside the one allocation the planes otherwise share, stops the run as a SEGV report.
#   make sanitize-test
# What this toolchain supports here (Swift 6.3.1, x86_64 Linux): swiftc takes -sanitize=address
# (and thread, fuzzer) but refuses -sanitize=undefined, so UBSan instruments the C code (the shims)
# while Swift code relies on its own overflow and bounds traps, which stay on in -O builds.
# Every report stops the run with a failing exit code: ASan always aborts on its first report,
# UBSan is told to (-fno-sanitize-recover), LeakSanitizer runs at each process exit.
SANITIZE_PATH := .build/sanitize
SANITIZE_FLAGS := $(SWIFT_FLAGS) --build-path $(SANITIZE_PATH) --sanitize address -Xswiftc -DBACKDROP_GUARD_PAGES \
	-Xcc -fsanitize=undefined -Xcc -fno-sanitize-recover=undefined \
	-Xswiftc -Xclang-linker -Xswiftc -fsanitize=undefined
# allocator_may_return_null: a refused allocation must reach the code as NULL (the out-of-memory
# tests), not as ASan's own abort.
SANITIZE_ENV := ASAN_OPTIONS=allocator_may_return_null=1:detect_leaks=1:strict_string_checks=1 \
	LSAN_OPTIONS=suppressions=$(CURDIR)/tests/sanitize/lsan.supp \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 BACKDROP_SANITIZED=1
# The allocation-counting tests interpose malloc, which ASan owns; Tests/CAllocCounter leaves the
# interposers out under ASan and these tests run in the ordinary build only.
SANITIZE_SKIP := SteadyStateAllocation|AllocateNothing|AllocatesNothing|V4L2SourceAllocation

.PHONY: sanitize-test
sanitize-test: deps
	@bash scripts/build-info.sh
	nice $(SWIFT) build $(SANITIZE_FLAGS) --build-tests
	$(SANITIZE_ENV) $(SWIFT) test $(SANITIZE_FLAGS) --skip-build --skip '$(SANITIZE_SKIP)'
	$(SANITIZE_ENV) bash tests/cli.sh $(SANITIZE_PATH)/release/backdrop
	$(SANITIZE_ENV) $(SANITIZE_PATH)/release/backdrop demo --frames 60 --out $(SANITIZE_PATH)/demo.y4m
	@echo "sanitize-test: unit tests, cli checks and a demo ran under ASan + UBSan with no report"
