#ifndef BACKDROP_ALLOC_COUNTER_H
#define BACKDROP_ALLOC_COUNTER_H
#include <stdint.h>
/// Starts counting malloc/calloc/realloc/posix_memalign/aligned_alloc calls from every thread.
void alloc_counter_start(void);
/// Stops counting and returns how many calls were made since start.
uint64_t alloc_counter_stop(void);
#endif
