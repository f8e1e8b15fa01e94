# The runtime's acceptance checks (issue 9), each a script in tests/runtime/ that says PASS/FAIL:
#   runtime-test   thread placement in /proc, the I/O thread sleeping only in epoll_wait (strace),
#                  SIGHUP rescanning the backdrops on the synthetic source too,
#                  and ThreadSanitizer over the threaded unit tests and a signalled run
#                  (its own build path, .build-tsan).
.PHONY: runtime-test
runtime-test: build
	@status=0; \
	bash tests/runtime/placement.sh $(BACKDROP) || status=1; \
	bash tests/runtime/io-blocking.sh $(BACKDROP) || status=1; \
	bash tests/runtime/reload-rescan.sh $(BACKDROP) || status=1; \
	bash tests/runtime/tsan.sh || status=1; \
	exit $$status
