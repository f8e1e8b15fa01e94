// Software prefetch, which Swift cannot spell. The compose kernels stream whole frames (the
// backdrop in, the frame out) and on the machines measured the hardware prefetcher alone left
// them waiting on the backdrop's loads (see Compose's ReadAhead).
#ifndef BACKDROP_CKERNEL_PREFETCH_H
#define BACKDROP_CKERNEL_PREFETCH_H

/// A hint to bring the line at `address` into the cache for reading. It never faults, so it may
/// point past the end of a buffer.
static inline void bk_prefetch(const void *address) { __builtin_prefetch(address, 0, 3); }

#endif
