#define _GNU_SOURCE
#include "CKernel.h"
#include "FaultPoint.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/timerfd.h>
#include <time.h>
#include <sys/uio.h>
#include <unistd.h>

static int saved_argc;
static char **saved_argv;
static cpu_set_t initial_affinity;
static int initial_affinity_known;
// glibc passes (argc, argv, envp) to .init_array functions; this runs before Swift's main.
__attribute__((constructor)) static void bk_save_arguments(int argc, char **argv, char **envp) {
    (void)envp;
    saved_argc = argc;
    saved_argv = argv;
    // The CPUs the process was started with, before any thread pins itself: an unpinned worker
    // goes back to these instead of inheriting the pinning of the thread that created it.
    initial_affinity_known = sched_getaffinity(0, sizeof initial_affinity, &initial_affinity) == 0;
}
int bk_argc(void) { return saved_argc; }
const char *bk_argv(int index) { return (index >= 0 && index < saved_argc) ? saved_argv[index] : NULL; }
const char *bk_getenv(const char *name) { return getenv(name); }
void bk_exit(int status) { _exit(status); }

int bk_errno(void) { return errno; }
void bk_set_errno(int value) { errno = value; }
const char *bk_strerror(int code) { return strerror(code); }

int bk_open(const char *path, int flags, unsigned mode) {
    return BK_SYSCALL(BK_CALL_OPEN, -1, 0, open(path, flags | O_CLOEXEC, mode));
}
int bk_open_read(const char *path) { return BK_SYSCALL(BK_CALL_OPEN, -1, 0, open(path, O_RDONLY | O_CLOEXEC)); }
int bk_open_write_truncate(const char *path) {
    return BK_SYSCALL(BK_CALL_OPEN, -1, 0, open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644));
}
int bk_close(int fd) { return close(fd); }
ssize_t bk_read(int fd, void *buffer, size_t count) { return BK_SYSCALL(BK_CALL_READ, fd, 0, read(fd, buffer, count)); }
ssize_t bk_write(int fd, const void *buffer, size_t count) { return BK_SYSCALL(BK_CALL_WRITE, fd, 0, write(fd, buffer, count)); }
ssize_t bk_pread(int fd, void *buffer, size_t count, off_t offset) {
    return BK_SYSCALL(BK_CALL_READ, fd, 0, pread(fd, buffer, count, offset));
}
int bk_ioctl(int fd, unsigned long request, void *argument) {
    return BK_SYSCALL(BK_CALL_IOCTL, fd, request, ioctl(fd, request, argument));
}
int bk_fsync(int fd) { return BK_SYSCALL(BK_CALL_FSYNC, fd, 0, fsync(fd)); }
int bk_rename(const char *from, const char *to) { return BK_SYSCALL(BK_CALL_RENAME, -1, 0, rename(from, to)); }
int bk_unlink(const char *path) { return unlink(path); }
int bk_mkdir(const char *path, unsigned mode) { return BK_SYSCALL(BK_CALL_MKDIR, -1, 0, mkdir(path, mode)); }

int64_t bk_file_size(const char *path) {
    struct stat info;
    if (stat(path, &info) != 0) return -1;
    if (!S_ISREG(info.st_mode)) return -2;
    return (int64_t)info.st_size;
}

int bk_is_directory(const char *path) {
    struct stat info;
    if (stat(path, &info) != 0) return -1;
    return S_ISDIR(info.st_mode) ? 1 : 0;
}

void *bk_mmap_shared(int fd, size_t length, off_t offset, int writable) {
    int protection = PROT_READ | (writable ? PROT_WRITE : 0);
    if (BK_SYSCALL(BK_CALL_MMAP, fd, 0, 0) != 0) return NULL;
    void *address = mmap(NULL, length, protection, MAP_SHARED, fd, offset);
    return address == MAP_FAILED ? NULL : address;
}
int bk_munmap(void *address, size_t length) { return munmap(address, length); }

int bk_list_directory(const char *path, char *names, size_t capacity, size_t *used) {
    DIR *directory = opendir(path);
    if (!directory) return -1;
    int count = 0;
    size_t offset = 0;
    struct dirent *entry;
    while ((entry = readdir(directory)) != NULL) {
        if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0) continue;
        size_t length = strlen(entry->d_name) + 1;
        if (offset + length > capacity) break;
        memcpy(names + offset, entry->d_name, length);
        offset += length;
        count++;
    }
    closedir(directory);
    *used = offset;
    return count;
}

uint64_t bk_monotonic_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint64_t)now.tv_sec * 1000000000ull + (uint64_t)now.tv_nsec;
}

void bk_sleep_ns(uint64_t nanoseconds) {
    struct timespec request = { (time_t)(nanoseconds / 1000000000ull), (long)(nanoseconds % 1000000000ull) };
    while (nanosleep(&request, &request) != 0 && errno == EINTR) {}
}

static cpu_set_t cpu_set_of(uint64_t cpu_mask) {
    cpu_set_t set;
    CPU_ZERO(&set);
    for (int cpu = 0; cpu < 64; cpu++)
        if (cpu_mask & (1ull << cpu)) CPU_SET(cpu, &set);
    return set;
}

int bk_pin_current_thread(uint64_t cpu_mask) {
    cpu_set_t set = cpu_set_of(cpu_mask);
    return pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}

int bk_unpin_current_thread(void) {
    if (!initial_affinity_known) return 0;
    return pthread_setaffinity_np(pthread_self(), sizeof initial_affinity, &initial_affinity);
}

int bk_set_realtime(int priority) {
    struct sched_param parameters = { .sched_priority = priority };
    return pthread_setschedparam(pthread_self(), SCHED_FIFO, &parameters);
}

int bk_online_cpus(void) { return (int)sysconf(_SC_NPROCESSORS_ONLN); }

int bk_thread_start(uint64_t *handle, bk_thread_body body, void *context, uint64_t cpu_mask) {
    pthread_t thread;
    // Tests only: lets the fault injector carry the creating thread's scope into the new thread.
    if (bk_fault_wrap_thread) bk_fault_wrap_thread(&body, &context);
    // Born on its CPUs: a thread that only pinned itself once it first ran showed the creating
    // thread's CPUs until then, which a loaded machine stretched past start-up (make test's
    // placement check read a worker on 0-1 after "running:").
    cpu_set_t set = cpu_set_of(cpu_mask);
    if (cpu_mask == 0 && initial_affinity_known) set = initial_affinity;
    pthread_attr_t attributes;
    int result = pthread_attr_init(&attributes);
    if (result != 0) return result;
    if (CPU_COUNT(&set) > 0) pthread_attr_setaffinity_np(&attributes, sizeof set, &set);
    result = pthread_create(&thread, &attributes, body, context);
    pthread_attr_destroy(&attributes);
    // CPUs this process may not use (a cpuset) make pthread_create refuse the attributes: start
    // it as before, and the thread's own pinning says it was refused.
    if (result == EINVAL && CPU_COUNT(&set) > 0) result = pthread_create(&thread, NULL, body, context);
    if (result == 0) *handle = (uint64_t)thread;
    return result;
}
int bk_thread_join(uint64_t handle) { return pthread_join((pthread_t)handle, NULL); }

void *bk_aligned_alloc(size_t alignment, size_t size) {
    if (BK_SYSCALL(BK_CALL_ALLOC, -1, size, 0) != 0) return NULL;
    void *pointer = NULL;
    if (posix_memalign(&pointer, alignment, size) != 0) return NULL;
    return pointer;
}
void bk_free(void *pointer) { free(pointer); }

size_t bk_page_size(void) { return (size_t)sysconf(_SC_PAGESIZE); }
void *bk_guarded_alloc(size_t size) {
    if (BK_SYSCALL(BK_CALL_ALLOC, -1, size, 0) != 0) return NULL;
    void *pointer = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return pointer == MAP_FAILED ? NULL : pointer;
}
int bk_guard_pages(void *address, size_t length) { return mprotect(address, length, PROT_NONE) == 0 ? 0 : errno; }
void bk_guarded_free(void *address, size_t size) { munmap(address, size); }

void bk_log_line(const char *text) {
    // One write per line: journald and tests read whole lines even with several threads logging.
    // writev rather than a copy into a fixed buffer, so a long message (a list of problems) is
    // not cut short.
    struct iovec parts[2] = {
        { .iov_base = (void *)text, .iov_len = strlen(text) },
        { .iov_base = (void *)"\n", .iov_len = 1 },
    };
    ssize_t ignored = writev(2, parts, 2);
    (void)ignored;
}

void bk_write_stdout(const char *text, size_t length) {
    while (length > 0) {
        ssize_t written = write(1, text, length);
        if (written < 0) { if (errno == EINTR) continue; return; }
        text += written;
        length -= (size_t)written;
    }
}

int bk_signalfd_for(const int *signals, int count) {
    sigset_t set;
    sigemptyset(&set);
    for (int i = 0; i < count; i++) sigaddset(&set, signals[i]);
    // Blocked in every thread created afterwards, so only the signalfd sees them.
    if (pthread_sigmask(SIG_BLOCK, &set, NULL) != 0) return -1;
    return signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
}
int bk_signalfd_read(int fd) {
    struct signalfd_siginfo info;
    ssize_t got;
    do got = BK_SYSCALL(BK_CALL_READ, fd, 0, read(fd, &info, sizeof info)); while (got < 0 && errno == EINTR);
    if (got != (ssize_t)sizeof info) return -1;
    return (int)info.ssi_signo;
}
int bk_raise(int signal) { return raise(signal); }
int bk_block_stop_signals(void) {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGINT);
    return pthread_sigmask(SIG_BLOCK, &set, NULL) == 0 ? 0 : -1;
}
int bk_pending_stop_signal(void) {
    sigset_t set;
    if (sigpending(&set) != 0) return 0;
    if (sigismember(&set, SIGTERM) == 1) return SIGTERM;
    if (sigismember(&set, SIGINT) == 1) return SIGINT;
    return 0;
}

int bk_eventfd(void) { return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC); }
int bk_eventfd_signal(int fd) {
    uint64_t one = 1;
    ssize_t put;
    do put = BK_SYSCALL(BK_CALL_WRITE, fd, 0, write(fd, &one, sizeof one)); while (put < 0 && errno == EINTR);
    return put == sizeof one ? 0 : -1;
}
int bk_eventfd_drain(int fd) {
    uint64_t value;
    ssize_t got;
    do got = BK_SYSCALL(BK_CALL_READ, fd, 0, read(fd, &value, sizeof value)); while (got < 0 && errno == EINTR);
    return got == sizeof value ? 0 : -1;
}

int bk_semaphore_create(void) { return eventfd(0, EFD_SEMAPHORE | EFD_CLOEXEC); }
int bk_semaphore_post(int fd) {
    uint64_t one = 1;
    for (;;) {
        if (BK_SYSCALL(BK_CALL_WRITE, fd, 0, write(fd, &one, sizeof one)) == sizeof one) return 0;
        if (errno != EINTR) return -1;
    }
}
int bk_semaphore_wait(int fd, int timeout_ms) {
    for (;;) {
        if (timeout_ms >= 0) {
            struct pollfd waiter = { .fd = fd, .events = POLLIN };
            int ready = BK_SYSCALL(BK_CALL_WAIT, fd, 0, poll(&waiter, 1, timeout_ms));
            if (ready == 0) return 0;
            if (ready < 0) { if (errno == EINTR) continue; return -1; }
        }
        uint64_t value;
        if (BK_SYSCALL(BK_CALL_READ, fd, 0, read(fd, &value, sizeof value)) == sizeof value) return 1;
        if (errno != EINTR) return -1;
    }
}

int bk_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }
int bk_epoll_add(int epoll_fd, int fd, uint32_t events, uint64_t token) {
    struct epoll_event event = { .events = events, .data.u64 = token };
    return epoll_ctl(epoll_fd, EPOLL_CTL_ADD, fd, &event);
}
int bk_epoll_remove(int epoll_fd, int fd) { return epoll_ctl(epoll_fd, EPOLL_CTL_DEL, fd, NULL); }
int bk_epoll_wait(int epoll_fd, uint64_t *tokens, uint32_t *masks, int capacity, int timeout_ms) {
    struct epoll_event events[16];
    if (capacity > 16) capacity = 16;
    int count = BK_SYSCALL(BK_CALL_WAIT, epoll_fd, 0, epoll_wait(epoll_fd, events, capacity, timeout_ms));
    for (int i = 0; i < count; i++) { tokens[i] = events[i].data.u64; masks[i] = events[i].events; }
    return count;
}
int bk_timerfd_create(void) { return timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC); }
int bk_timerfd_arm(int fd, uint64_t interval_ns) {
    struct itimerspec spec;
    spec.it_interval.tv_sec = (time_t)(interval_ns / 1000000000ull);
    spec.it_interval.tv_nsec = (long)(interval_ns % 1000000000ull);
    spec.it_value = spec.it_interval;
    return timerfd_settime(fd, 0, &spec, NULL);
}
int bk_timerfd_drain(int fd) {
    uint64_t expirations;
    ssize_t got;
    do got = BK_SYSCALL(BK_CALL_READ, fd, 0, read(fd, &expirations, sizeof expirations)); while (got < 0 && errno == EINTR);
    return got == sizeof expirations ? 0 : -1;
}
int bk_timerfd_arm_at(int fd, uint64_t deadline_ns) {
    struct itimerspec spec = { { 0, 0 }, { 0, 0 } };
    spec.it_value.tv_sec = (time_t)(deadline_ns / 1000000000ull);
    spec.it_value.tv_nsec = (long)(deadline_ns % 1000000000ull);
    // An absolute time of 0 would disarm: a deadline already past must still fire.
    if (deadline_ns == 0) spec.it_value.tv_nsec = 1;
    return timerfd_settime(fd, TFD_TIMER_ABSTIME, &spec, NULL);
}
