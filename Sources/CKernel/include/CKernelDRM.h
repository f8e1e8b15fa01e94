// Scanout: the DRM ioctls Backdrop issues per frame without libdrm, because libdrm's atomic commit
// and event handling allocate on every call and the frame path must not. Setup (resources,
// properties, dumb buffers) stays with libdrm in the Scanout module.
#ifndef BACKDROP_CKERNEL_DRM_H
#define BACKDROP_CKERNEL_DRM_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// DRM_IOCTL_MODE_ATOMIC over caller-owned arrays: `objects[i]` carries `prop_counts[i]`
/// consecutive entries of `props`/`values`. Returns 0 or -1 with errno (EINTR retried here).
int bk_drm_atomic_commit(int fd, uint32_t flags, const uint32_t *objects, const uint32_t *prop_counts,
                         uint32_t object_count, const uint32_t *props, const uint64_t *values, uint64_t user_data);

/// The connector's last known status without forcing a probe (no EDID read):
/// 1 connected, 2 disconnected, 3 unknown, -1 with errno.
int bk_drm_connector_status(int fd, uint32_t connector_id);

/// One page-flip completion. `nanoseconds` is CLOCK_MONOTONIC (DRM_CAP_TIMESTAMP_MONOTONIC is
/// always 1 since Linux 4.15).
typedef struct {
    uint64_t user_data;
    uint64_t nanoseconds;
    uint32_t sequence;
    uint32_t crtc_id;
} bk_drm_flip;

/// Reads the queued DRM events without blocking and keeps the page-flip completions; returns how
/// many were stored, 0 when none was queued, -1 with errno. Other event types are skipped.
int bk_drm_read_flips(int fd, bk_drm_flip *flips, int capacity);

/// poll(2) for POLLIN on one fd: 1 readable, 0 time-out, -1 with errno. Used on the DRM fd and on
/// sync-file fences (a fence fd is readable once signalled).
int bk_poll_readable(int fd, int timeout_ms);

enum {
    BK_DRM_MODE_PAGE_FLIP_EVENT = 0x01,
    BK_DRM_MODE_ATOMIC_TEST_ONLY = 0x0100,
    BK_DRM_MODE_ATOMIC_NONBLOCK = 0x0200,
    BK_DRM_MODE_ATOMIC_ALLOW_MODESET = 0x0400,
    BK_DRM_MODE_CONNECTOR_WRITEBACK = 18,
    BK_DRM_MODE_OBJECT_CRTC = 0xcccccccc,
    BK_DRM_MODE_OBJECT_CONNECTOR = 0xc0c0c0c0,
    BK_DRM_MODE_OBJECT_PLANE = 0xeeeeeeee,
    BK_DRM_PLANE_TYPE_OVERLAY = 0,
    BK_DRM_PLANE_TYPE_PRIMARY = 1,
    BK_DRM_PLANE_TYPE_CURSOR = 2,
    BK_DRM_MODE_TYPE_PREFERRED = 1 << 3,
    BK_DRM_CLIENT_CAP_UNIVERSAL_PLANES = 2,
    BK_DRM_CLIENT_CAP_ATOMIC = 3,
    BK_DRM_CLIENT_CAP_WRITEBACK_CONNECTORS = 5,
    BK_DRM_CAP_DUMB_BUFFER = 0x1,
};

#ifdef __cplusplus
}
#endif
#endif
