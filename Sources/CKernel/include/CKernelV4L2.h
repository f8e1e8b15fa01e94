// Capture's part of the C shim: VIDIOC_* request numbers are function-like macros built from
// sizeof, so Swift cannot import them; they are re-declared here as constants. The v4l2_* structs
// come along with <linux/videodev2.h>; only the Capture module may use them (DESIGN.md: no
// v4l2 struct leaks out of Capture). No logic lives here.
#ifndef BACKDROP_CKERNEL_V4L2_H
#define BACKDROP_CKERNEL_V4L2_H

#include <stdint.h>
#include <linux/videodev2.h>
#include <linux/uvcvideo.h>
#include <linux/usb/video.h>

#ifdef __cplusplus
extern "C" {
#endif

static const unsigned long BK_VIDIOC_QUERYCAP = VIDIOC_QUERYCAP;
static const unsigned long BK_VIDIOC_ENUM_FMT = VIDIOC_ENUM_FMT;
static const unsigned long BK_VIDIOC_G_FMT = VIDIOC_G_FMT;
static const unsigned long BK_VIDIOC_S_FMT = VIDIOC_S_FMT;
static const unsigned long BK_VIDIOC_G_PARM = VIDIOC_G_PARM;
static const unsigned long BK_VIDIOC_S_PARM = VIDIOC_S_PARM;
static const unsigned long BK_VIDIOC_REQBUFS = VIDIOC_REQBUFS;
static const unsigned long BK_VIDIOC_QUERYBUF = VIDIOC_QUERYBUF;
static const unsigned long BK_VIDIOC_QBUF = VIDIOC_QBUF;
static const unsigned long BK_VIDIOC_DQBUF = VIDIOC_DQBUF;
static const unsigned long BK_VIDIOC_EXPBUF = VIDIOC_EXPBUF;
static const unsigned long BK_VIDIOC_STREAMON = VIDIOC_STREAMON;
static const unsigned long BK_VIDIOC_STREAMOFF = VIDIOC_STREAMOFF;
static const unsigned long BK_VIDIOC_S_CTRL = VIDIOC_S_CTRL;
/// uvcvideo's raw extension-unit query (struct uvc_xu_control_query): a RealSense's hardware
/// monitor lives behind one. Goes through the same funnel (and fault injection) as VIDIOC_*.
static const unsigned long BK_UVCIOC_CTRL_QUERY = UVCIOC_CTRL_QUERY;

enum {
    BK_V4L2_BUF_TYPE_VIDEO_CAPTURE = V4L2_BUF_TYPE_VIDEO_CAPTURE,
    BK_V4L2_MEMORY_MMAP = V4L2_MEMORY_MMAP,
    BK_V4L2_FIELD_NONE = V4L2_FIELD_NONE,
    BK_V4L2_FIELD_ANY = V4L2_FIELD_ANY,
    BK_V4L2_TIMESTAMP_MASK = V4L2_BUF_FLAG_TIMESTAMP_MASK,
    BK_V4L2_TIMESTAMP_MONOTONIC = V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC,
    BK_V4L2_TIMESTAMP_UNKNOWN = V4L2_BUF_FLAG_TIMESTAMP_UNKNOWN,
    BK_V4L2_BUF_FLAG_ERROR = V4L2_BUF_FLAG_ERROR,
    BK_V4L2_CAP_TIMEPERFRAME = V4L2_CAP_TIMEPERFRAME,
    BK_POLLIN = 0x001, BK_POLLPRI = 0x002, BK_POLLERR = 0x008, BK_POLLHUP = 0x010, BK_POLLNVAL = 0x020,
    BK_ENOTTY = 25, BK_EIO = 5,
    BK_UVC_SET_CUR = UVC_SET_CUR, BK_UVC_GET_CUR = UVC_GET_CUR,
};
static const uint32_t BK_V4L2_CAP_VIDEO_CAPTURE = V4L2_CAP_VIDEO_CAPTURE;
static const uint32_t BK_V4L2_CAP_STREAMING = V4L2_CAP_STREAMING;
static const uint32_t BK_V4L2_CAP_DEVICE_CAPS = V4L2_CAP_DEVICE_CAPS;

/// Opens a V4L2 node read-write, non-blocking (DQBUF then answers EAGAIN instead of waiting)
/// and close-on-exec; -1 with errno on failure.
int bk_v4l2_open(const char *path);

/// Flags for VIDIOC_EXPBUF: the exported dmabuf fd is read-write and close-on-exec.
int bk_v4l2_export_flags(void);

/// The device number (st_rdev) of the node `path` names, following links; 0 when it cannot be
/// read. Tells a /dev/v4l/by-id link and its /dev/videoN apart from two different nodes.
uint64_t bk_v4l2_device_number(const char *path);

/// poll(2) on up to two descriptors (a negative fd is skipped); the returned event masks land in
/// revents_a and revents_b. Returns what poll returns; the caller retries EINTR.
int bk_v4l2_poll_pair(int fd_a, int fd_b, short events, int timeout_ms, short *revents_a, short *revents_b);

#ifdef __cplusplus
}
#endif
#endif
