# `backdrop record` from the virtual board's vivid cameras, played back on the host through
# `backdrop render` and `backdrop eval` (tests/vboard/record.sh).
.PHONY: vboard-record-test
vboard-record-test: build
	@bash tests/vboard/record.sh
