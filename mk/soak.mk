# Memory and descriptors stay flat over a long run (Tests/PipelineTests/SoakTests.swift): the
# synthetic source unpaced through the threaded pipeline into the null sink, this process's RSS
# and open fds sampled every 10 s after warm-up (and at each tenth of the frames and the end, so
# the short run has samples too), each sample printed; fails if RSS moves more than 1 MiB or an fd is
# gained or lost. Alone in its process (--filter) so no other test's memory moves the figures.
#   make soak        100,000 frames, 640x480 camera to 1920x1080 (long: minutes to an hour on a loaded machine)
#   make soak-test   10,000 frames, 160x120 camera to 320x180, part of `make test`
#   make board-soak  `backdrop run` on the virtual board (vivid camera, vkms display) for MINUTES
#                    (default 30) with a button press every 10 s and a camera unplug every 3 min;
#                    RSS, fds and frame counts judged by tests/soak/board.sh. Not in `make test`.
.PHONY: soak soak-test board-soak
MINUTES ?= 30
SOAK_FRAMES ?= 100000
SOAK_SIZE ?= 1920x1080

soak: deps
	$(SWIFT) build $(SWIFT_FLAGS) --build-tests
	BACKDROP_SOAK_FRAMES=$(SOAK_FRAMES) BACKDROP_SOAK_SIZE=$(SOAK_SIZE) \
		$(SWIFT) test $(SWIFT_FLAGS) --skip-build --filter SoakTests

soak-test: deps
	$(SWIFT) build $(SWIFT_FLAGS) --build-tests
	BACKDROP_SOAK_FRAMES=10000 BACKDROP_SOAK_CAMERA=160x120 BACKDROP_SOAK_SIZE=320x180 \
		$(SWIFT) test $(SWIFT_FLAGS) --skip-build --filter SoakTests

board-soak: build vboard-x86_64
	nice -n 10 bash tests/soak/board.sh --minutes $(MINUTES)
