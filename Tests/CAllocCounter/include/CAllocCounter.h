#ifndef BACKDROP_ALLOC_COUNTER_H
#define BACKDROP_ALLOC_COUNTER_H
#include <stdint.h>
/// 0 when the counter is compiled out (a ThreadSanitizer build): allocation tests skip then.
int alloc_counter_available(void);
/// Marks the calling thread, and every thread it creates from now on (and theirs), as tracked.
/// Other tests running in parallel in the same process stay uncounted.
void alloc_counter_track_this_thread(int on);
/// Starts counting malloc/calloc/realloc/posix_memalign/aligned_alloc calls on tracked threads.
void alloc_counter_start(void);
/// Stops counting and returns how many calls were made since start.
uint64_t alloc_counter_stop(void);
#endif
