// The one funnel from Swift to libc and the kernel. Macros and variadic calls (ioctl, open,
// errno, CPU_SET, fcntl) do not import into Swift, and Embedded Swift cannot import Glibc,
// so each is wrapped here as a plain function. No logic lives here.
#ifndef BACKDROP_CKERNEL_H
#define BACKDROP_CKERNEL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

int bk_errno(void);
void bk_set_errno(int value);
const char *bk_strerror(int code);

int bk_open(const char *path, int flags, unsigned mode);
int bk_open_read(const char *path);
int bk_open_write_truncate(const char *path);
int bk_close(int fd);
ssize_t bk_read(int fd, void *buffer, size_t count);
ssize_t bk_write(int fd, const void *buffer, size_t count);
ssize_t bk_pread(int fd, void *buffer, size_t count, off_t offset);
int bk_ioctl(int fd, unsigned long request, void *argument);
int bk_fsync(int fd);
int bk_rename(const char *from, const char *to);
int bk_unlink(const char *path);
int bk_mkdir(const char *path, unsigned mode);
/// Size in bytes of a regular file, -1 with errno on failure, -2 when it is not a regular file.
int64_t bk_file_size(const char *path);
/// 1 directory, 0 other, -1 missing (errno set).
int bk_is_directory(const char *path);

void *bk_mmap_shared(int fd, size_t length, off_t offset, int writable);
int bk_munmap(void *address, size_t length);

/// Directory listing without exposing DIR*: fills `names` with NUL-separated entry names
/// (excluding . and ..), returns the count or -1 with errno. Truncates at capacity.
int bk_list_directory(const char *path, char *names, size_t capacity, size_t *used);

uint64_t bk_monotonic_ns(void);
void bk_sleep_ns(uint64_t nanoseconds);

/// Pins the calling thread to the CPUs whose bits are set in mask (bit n = CPU n).
int bk_pin_current_thread(uint64_t cpu_mask);
/// Gives the calling thread the CPUs the process started with (undoes an inherited pinning).
int bk_unpin_current_thread(void);
/// Tries SCHED_FIFO at the given priority for the calling thread; returns 0 or an errno.
int bk_set_realtime(int priority);
int bk_online_cpus(void);

typedef void *(*bk_thread_body)(void *);
/// Starts a joinable thread on the CPUs of cpu_mask (0: those the process started with);
/// returns 0 or an errno. The handle is opaque to Swift.
int bk_thread_start(uint64_t *handle, bk_thread_body body, void *context, uint64_t cpu_mask);
int bk_thread_join(uint64_t handle);

void *bk_aligned_alloc(size_t alignment, size_t size);
void bk_free(void *pointer);

/// The guarded layout's memory (KernelIO's GuardedPlanes, for tests and the sanitizer stage):
/// `size` bytes of zeroed, page-aligned anonymous memory, or NULL (the same fault point as
/// bk_aligned_alloc); bk_guard_pages makes [address, address + length) inaccessible
/// (mprotect PROT_NONE), so a store there is a SIGSEGV; bk_guarded_free unmaps the whole block.
size_t bk_page_size(void);
void *bk_guarded_alloc(size_t size);
int bk_guard_pages(void *address, size_t length);
void bk_guarded_free(void *address, size_t size);

/// Writes one line to stderr in a single write so concurrent log lines do not interleave.
void bk_log_line(const char *text);
void bk_write_stdout(const char *text, size_t length);

// Signals and event descriptors for the I/O thread.
int bk_signalfd_for(const int *signals, int count);
int bk_signalfd_read(int fd);
int bk_raise(int signal);
// TERM and INT blocked in the calling thread, then polled (sigpending): see KernelIO's StopRequest.
int bk_block_stop_signals(void);
int bk_pending_stop_signal(void);
int bk_eventfd(void);
int bk_eventfd_signal(int fd);
int bk_eventfd_drain(int fd);
int bk_epoll_create(void);
int bk_epoll_add(int epoll_fd, int fd, uint32_t events, uint64_t token);
int bk_epoll_remove(int epoll_fd, int fd);
/// Waits for at most `capacity` events; tokens and event masks land in the two arrays.
int bk_epoll_wait(int epoll_fd, uint64_t *tokens, uint32_t *masks, int capacity, int timeout_ms);
int bk_timerfd_create(void);
int bk_timerfd_arm(int fd, uint64_t interval_ns);
int bk_timerfd_drain(int fd);
/// One-shot at an absolute CLOCK_MONOTONIC time (0 disarms); past times fire at once.
int bk_timerfd_arm_at(int fd, uint64_t deadline_ns);

/// The process's arguments. Embedded Swift has no CommandLine, so the shim keeps what glibc
/// hands to constructors (argc, argv) before main runs.
int bk_argc(void);
const char *bk_argv(int index);
/// Flushes nothing and leaves with the given status (stdout is written unbuffered by bk_write_stdout).
void bk_exit(int status) __attribute__((noreturn));
/// An environment variable or NULL.
const char *bk_getenv(const char *name);

/// A counting semaphore on an eventfd (EFD_SEMAPHORE, blocking): post and wait are single
/// syscalls that never allocate, which the frame path needs.
int bk_semaphore_create(void);
int bk_semaphore_post(int fd);
/// Waits up to timeout_ms (-1 forever); returns 1 when taken, 0 on time-out, -1 on error.
int bk_semaphore_wait(int fd, int timeout_ms);

enum {
    BK_EPOLLIN = 0x001, BK_EPOLLPRI = 0x002, BK_EPOLLOUT = 0x004,
    BK_EPOLLERR = 0x008, BK_EPOLLHUP = 0x010,
    BK_SIGHUP = 1, BK_SIGINT = 2, BK_SIGUSR1 = 10, BK_SIGUSR2 = 12, BK_SIGTERM = 15,
    BK_EINTR = 4, BK_EAGAIN = 11, BK_ENOENT = 2, BK_ENODEV = 19, BK_EBUSY = 16, BK_EINVAL = 22,
    BK_EPERM = 1, BK_ENOSPC = 28, BK_EEXIST = 17, BK_ENOMEM = 12,
};

#ifdef __cplusplus
}
#endif
#endif
