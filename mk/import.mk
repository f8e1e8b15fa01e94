# Crash trials for the USB stick import (tests/import-crash.sh): the import killed before every
# durability-relevant system call of two scenarios, an update and a first import (import-crash,
# outside `make test`, about 570 trials), or before each call of the switch window and about 13
# more spread over the update (import-crash-test, in `make test`, 20 trials). A process crash,
# not a power cut (that is `make powercut`): see the script's header.
.PHONY: import-crash import-crash-test import-crash-deps import-stop-test import-board-test

import-crash-deps:
	@command -v strace >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends strace

import-crash: build import-crash-deps
	bash tests/import-crash.sh $(BACKDROP)

import-crash-test: build import-crash-deps
	bash tests/import-crash.sh $(BACKDROP) 20

# SIGTERM mid-import (systemd stopping the stick's unit when the stick is pulled), injected at
# exact calls by strace, also through the unit's own ExecStart line (tests/import/stop.sh).
import-stop-test: build import-crash-deps
	bash tests/import/stop.sh $(BACKDROP)

# Hostile sticks imported on the x86_64 virtual board while the booth runs, the outcome seen on
# screen (tests/import/board.sh; one boot, both sticks in one booth run, about 2.5 min; it prints
# where the time went).
import-board-test: build
	bash tests/import/board.sh --binary $(BACKDROP)

# Figures, not a test: 20 backdrops of 1920x1080 JPEG imported while `backdrop run` shows a
# synthetic camera live into the null sink; the import's time and the frames dropped during it,
# beside an idle window as long (tests/import/figures.sh). Not in make test; nothing asserted.
.PHONY: import-figures
import-figures: build
	bash tests/import/figures.sh $(BACKDROP) 20
