# `backdrop cameras` on saved RealSense replies built from the documented layout (tests/cameras.sh,
# a second or two; needs python3, which the other test scripts use too).
.PHONY: cameras-test
cameras-test: build
	bash tests/cameras.sh $(BACKDROP)
