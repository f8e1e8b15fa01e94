// Interposes the malloc family for the test binary so the zero-allocation test can count what
// the frame path allocates. glibc removed __malloc_hook in 2.34, so interposition is the way;
// the real allocator is reached through glibc's __libc_* entry points.
#define _GNU_SOURCE
#include "CAllocCounter.h"
#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);

static atomic_int counting;
static atomic_ullong calls;

static inline void note(void) {
    if (atomic_load_explicit(&counting, memory_order_relaxed))
        atomic_fetch_add_explicit(&calls, 1, memory_order_relaxed);
}

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

void alloc_counter_start(void) {
    atomic_store(&calls, 0);
    atomic_store(&counting, 1);
}
uint64_t alloc_counter_stop(void) {
    atomic_store(&counting, 0);
    return atomic_load(&calls);
}
