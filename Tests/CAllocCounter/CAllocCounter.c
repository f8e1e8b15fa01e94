// Interposes the malloc family for the test binary so the zero-allocation test can count what
// the frame path allocates. glibc removed __malloc_hook in 2.34, so interposition is the way;
// the real allocator is reached through glibc's __libc_* entry points. pthread_create is
// interposed too, so threads the pipeline starts inherit "tracked" from the test's thread and
// tests running in parallel on other threads are not counted.
#define _GNU_SOURCE
#include "CAllocCounter.h"
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void __libc_free(void *);

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define ALLOC_COUNTER_UNDER_ASAN 1
#endif
#endif
#if defined(__SANITIZE_THREAD__) && !defined(ALLOC_COUNTER_UNDER_ASAN)
#define ALLOC_COUNTER_UNDER_ASAN 1
#endif

static atomic_int counting;
static atomic_ullong calls;
static __thread int tracked;

static inline void note(void) {
    if (tracked && atomic_load_explicit(&counting, memory_order_relaxed))
        atomic_fetch_add_explicit(&calls, 1, memory_order_relaxed);
}

// AddressSanitizer owns the malloc family itself (its allocator, its free): interposing here
// would hand it glibc's pointers. ThreadSanitizer intercepts malloc and pthread_create too. Under it nothing is interposed and the allocation tests are
// skipped by mk/sanitize.mk; they run in every ordinary build.
#ifndef ALLOC_COUNTER_UNDER_ASAN
void *malloc(size_t size) { note(); return __libc_malloc(size); }
void *calloc(size_t count, size_t size) { note(); return __libc_calloc(count, size); }
void *realloc(void *pointer, size_t size) { note(); return __libc_realloc(pointer, size); }
int posix_memalign(void **out, size_t alignment, size_t size) {
    note();
    void *pointer = __libc_memalign(alignment, size);
    if (!pointer) return ENOMEM;
    *out = pointer;
    return 0;
}
void *aligned_alloc(size_t alignment, size_t size) { note(); return __libc_memalign(alignment, size); }

struct start_record {
    void *(*body)(void *);
    void *argument;
    int tracked;
};

static void *tracked_start(void *raw) {
    struct start_record record = *(struct start_record *)raw;
    __libc_free(raw);
    tracked = record.tracked;
    return record.body(record.argument);
}

int pthread_create(pthread_t *thread, const pthread_attr_t *attributes, void *(*body)(void *), void *argument) {
    static int (*real_create)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);
    if (!real_create) real_create = dlsym(RTLD_NEXT, "pthread_create");
    if (!tracked) return real_create(thread, attributes, body, argument);
    struct start_record *record = __libc_malloc(sizeof *record);
    if (!record) return EAGAIN;
    record->body = body;
    record->argument = argument;
    record->tracked = tracked;
    int result = real_create(thread, attributes, tracked_start, record);
    if (result != 0) __libc_free(record);
    return result;
}

#endif

#ifndef ALLOC_COUNTER_UNDER_ASAN
int alloc_counter_available(void) { return 1; }
#else
int alloc_counter_available(void) { return 0; }
#endif

void alloc_counter_track_this_thread(int on) { tracked = on; }

void alloc_counter_start(void) {
    atomic_store(&calls, 0);
    atomic_store(&counting, 1);
}
uint64_t alloc_counter_stop(void) {
    atomic_store(&counting, 0);
    return atomic_load(&calls);
}
