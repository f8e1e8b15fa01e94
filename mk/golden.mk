# Golden outputs: SHA-256 of every matte and composite the release binary writes for the demo
# (640x480, and the 640x480 camera on a 1080p output), the group scenes and the three Kinect
# frames of ../shared/data/rgbd in [matte] auto and fixed, against tests/golden/checksums.txt.
# A refactor keeps them all; a change of bytes comes with `bash tests/golden/run.sh --update`
# in a commit that says why. See tests/golden/run.sh.
.PHONY: golden-test
golden-test: build
	bash tests/golden/run.sh $(BACKDROP)
