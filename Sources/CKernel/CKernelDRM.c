// Scanout's per-frame DRM ioctls; see CKernelDRM.h.
#include "CKernelDRM.h"
#include "FaultPoint.h"

#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <libdrm/drm.h>

static int retrying_ioctl(int call, int fd, unsigned long request, void *argument) {
    int result;
    do result = BK_SYSCALL(call, fd, request, ioctl(fd, request, argument)); while (result == -1 && errno == EINTR);
    return result;
}

int bk_drm_atomic_commit(int fd, uint32_t flags, const uint32_t *objects, const uint32_t *prop_counts,
                         uint32_t object_count, const uint32_t *props, const uint64_t *values, uint64_t user_data) {
    struct drm_mode_atomic request;
    memset(&request, 0, sizeof request);
    request.flags = flags;
    request.count_objs = object_count;
    request.objs_ptr = (uint64_t)(uintptr_t)objects;
    request.count_props_ptr = (uint64_t)(uintptr_t)prop_counts;
    request.props_ptr = (uint64_t)(uintptr_t)props;
    request.prop_values_ptr = (uint64_t)(uintptr_t)values;
    request.user_data = user_data;
    return retrying_ioctl(BK_CALL_IOCTL | BK_CALL_ATOMIC_COMMIT, fd, DRM_IOCTL_MODE_ATOMIC, &request);
}

int bk_drm_connector_status(int fd, uint32_t connector_id) {
    struct drm_mode_get_connector query;
    struct drm_mode_modeinfo one_mode;
    memset(&query, 0, sizeof query);
    // count_modes 0 would make the kernel re-probe the display (EDID over DDC); asking for one mode
    // returns the status the driver last saw.
    query.connector_id = connector_id;
    query.count_modes = 1;
    query.modes_ptr = (uint64_t)(uintptr_t)&one_mode;
    if (retrying_ioctl(BK_CALL_IOCTL, fd, DRM_IOCTL_MODE_GETCONNECTOR, &query) != 0) return -1;
    return (int)query.connection;
}

int bk_drm_read_flips(int fd, bk_drm_flip *flips, int capacity) {
    int stored = 0;
    struct pollfd ready = { .fd = fd, .events = POLLIN };
    while (stored < capacity) {
        int polled;
        do polled = BK_SYSCALL(BK_CALL_WAIT, fd, 0, poll(&ready, 1, 0)); while (polled < 0 && errno == EINTR);
        if (polled < 0) return -1;
        if (polled == 0) break;
        // The kernel hands out whole events only, so a buffer of several events never splits one.
        _Alignas(8) char buffer[1024];
        ssize_t got;
        do got = BK_SYSCALL(BK_CALL_READ, fd, 0, read(fd, buffer, sizeof buffer)); while (got < 0 && errno == EINTR);
        if (got < 0) return stored > 0 ? stored : -1;
        if (got == 0) break;
        for (ssize_t at = 0; at + (ssize_t)sizeof(struct drm_event) <= got;) {
            struct drm_event header;
            memcpy(&header, buffer + at, sizeof header);
            if (header.length < sizeof header || at + header.length > got) break;
            if (header.type == DRM_EVENT_FLIP_COMPLETE && header.length >= sizeof(struct drm_event_vblank) && stored < capacity) {
                struct drm_event_vblank flip;
                memcpy(&flip, buffer + at, sizeof flip);
                flips[stored].user_data = flip.user_data;
                flips[stored].nanoseconds = (uint64_t)flip.tv_sec * 1000000000ull + (uint64_t)flip.tv_usec * 1000ull;
                flips[stored].sequence = flip.sequence;
                flips[stored].crtc_id = flip.crtc_id;
                stored++;
            }
            at += header.length;
        }
    }
    return stored;
}

int bk_poll_readable(int fd, int timeout_ms) {
    struct pollfd ready = { .fd = fd, .events = POLLIN };
    int polled;
    do polled = BK_SYSCALL(BK_CALL_WAIT, fd, 0, poll(&ready, 1, timeout_ms)); while (polled < 0 && errno == EINTR);
    if (polled < 0) return -1;
    return polled > 0 && (ready.revents & POLLIN) ? 1 : (polled > 0 ? -1 : 0);
}
