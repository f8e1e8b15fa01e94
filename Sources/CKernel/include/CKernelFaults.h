// Fault injection at the funnel, for tests. Every system call the shim makes for the frame path,
// the devices and the durable writes first asks `bk_fault_for`; a non-zero answer is returned as
// that call's failure (-1 with errno) without reaching the kernel.
//
// `bk_fault_for` is a weak reference that nothing in the product defines: only the test-only
// target Tests/CFaultInjector does. In the `backdrop` binary and the Embedded firmware it stays
// null, so a call costs one compare with a link-time constant and a branch never taken before its
// syscall; no state, no lock, no allocation (see BK_SYSCALL below).
#ifndef BACKDROP_CKERNEL_FAULTS_H
#define BACKDROP_CKERNEL_FAULTS_H

#ifdef __cplusplus
extern "C" {
#endif

/// Which kind of call is asking; bits, so a test can name a set (e.g. read | write | ioctl).
enum {
    BK_CALL_READ = 1 << 0,
    BK_CALL_WRITE = 1 << 1,
    BK_CALL_IOCTL = 1 << 2,
    BK_CALL_OPEN = 1 << 3,
    BK_CALL_FSYNC = 1 << 4,
    BK_CALL_RENAME = 1 << 5,
    /// poll and epoll_wait: the blocking waits.
    BK_CALL_WAIT = 1 << 6,
    /// DRM_IOCTL_MODE_ATOMIC (also an ioctl; its own bit so a test can fail commits alone).
    BK_CALL_ATOMIC_COMMIT = 1 << 7,
    BK_CALL_MMAP = 1 << 8,
    BK_CALL_MKDIR = 1 << 9,
    /// bk_aligned_alloc (frame memory): `detail` is the size asked for; a failure returns NULL,
    /// as posix_memalign's ENOMEM does.
    BK_CALL_ALLOC = 1 << 10,
};

/// Called before each faultable call: `call` one BK_CALL_* bit, `fd` its descriptor (-1 for
/// calls by path), `detail` the ioctl request (0 otherwise). Returns 0 to let the call through or
/// the errno to fail it with. Must be callable from any thread.
int bk_fault_for(int call, int fd, unsigned long detail) __attribute__((weak));

/// Called by bk_thread_start before the thread exists, so the injector can carry the creating
/// thread's fault scope into it (by wrapping body and context). Weak and null in the product.
void bk_fault_wrap_thread(void *(**body)(void *), void **context) __attribute__((weak));

#ifdef __cplusplus
}
#endif
#endif
