# Sourced (sh or bash) by the board tests that run `backdrop` with the virtual board's cameras
# (tests/e2e/run.sh, tests/soak/board.sh, tests/vboard/record-guest.sh, tests/import/board.sh):
# the one [camera] block they share, so the board's camera is described in one place. vivid's
# two instances give `auto` a YUYV colour node and a Z16 depth node.
BOARD_CAMERA_CONFIG='[camera]
source = v4l2
color_device = auto
depth_device = auto
width = 640
height = 480
fps = 30
color_format = yuyv'
