// Capture's part of the C shim (see CKernelV4L2.h).
#include "CKernelV4L2.h"
#include "FaultPoint.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>

int bk_v4l2_open(const char *path) { return BK_SYSCALL(BK_CALL_OPEN, -1, 0, open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)); }

int bk_v4l2_export_flags(void) { return O_RDWR | O_CLOEXEC; }

int bk_v4l2_poll_pair(int fd_a, int fd_b, short events, int timeout_ms, short *revents_a, short *revents_b) {
    struct pollfd waiters[2] = { { .fd = fd_a, .events = events }, { .fd = fd_b, .events = events } };
    int ready = BK_SYSCALL(BK_CALL_WAIT, fd_a, 0, poll(waiters, 2, timeout_ms));
    *revents_a = waiters[0].revents;
    *revents_b = waiters[1].revents;
    return ready;
}

uint64_t bk_v4l2_device_number(const char *path) {
    struct stat info;
    if (stat(path, &info) != 0 || !S_ISCHR(info.st_mode)) return 0;
    return (uint64_t)info.st_rdev;
}
