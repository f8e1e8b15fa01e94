import CKernel

/// Prefetch for the compose kernels' sequential reads of whole frames (the backdrop, and the
/// camera at equal sizes). Why by hand: on the bench machine (AMD EPYC, a VM) the blend of the
/// scaled path spent half its time on the backdrop's loads with the hardware prefetcher alone,
/// and asking for the line 1 KiB ahead once per 32 bytes took compose from 0.62 to 0.39 ns per
/// output pixel at 640x480 under 1080p; prefetching the output for writing, or 2 KiB ahead,
/// gained nothing more.
enum ReadAhead {
    static let distance = 1024

    @inline(__always)
    static func touch(_ base: UnsafeRawPointer, _ offset: Int) {
        bk_prefetch(base + (offset &+ distance))
    }
}
