# Crash trials for the USB stick import (tests/import-crash.sh): the import killed at every
# durability-relevant system call (import-crash, outside `make test`) or at about 20 of them spread
# over its phases (import-crash-test, in `make test`). A process crash, not a power cut: see the
# script's header.
.PHONY: import-crash import-crash-test import-crash-deps

import-crash-deps:
	@command -v strace >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends strace

import-crash: build import-crash-deps
	bash tests/import-crash.sh $(BACKDROP)

import-crash-test: build import-crash-deps
	bash tests/import-crash.sh $(BACKDROP) 20

# Figures, not a test: 20 backdrops of 1920x1080 JPEG imported while `backdrop run` shows a
# synthetic camera live into the null sink; the import's time and the frames dropped during it,
# beside an idle window as long (tests/import/figures.sh). Not in make test; nothing asserted.
.PHONY: import-figures
import-figures: build
	bash tests/import/figures.sh $(BACKDROP) 20
