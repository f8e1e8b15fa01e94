// libv4lconvert (Debian's libv4l-dev): the format conversion behind libv4l2, used by Capture for
// colour cameras that offer no format Backdrop reads itself (see Capture/V4LConverter.swift).
#include <libv4lconvert.h>
