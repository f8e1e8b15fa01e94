import CKernel

/// Owns one block of frame memory, 64-byte aligned for wide SIMD loads; freed in `deinit`.
/// Allocated at start-up only: the frame path borrows, never creates, these.
public struct AlignedBuffer: ~Copyable {
    public let base: UnsafeMutableRawPointer
    public let byteCount: Int

    public init(byteCount: Int, alignment: Int = 64) {
        precondition(byteCount >= 0)
        guard let memory = bk_aligned_alloc(alignment, max(byteCount, alignment)) else {
            fatalError("out of memory allocating \(byteCount) bytes of frame memory")
        }
        base = memory
        self.byteCount = byteCount
        base.initializeMemory(as: UInt8.self, repeating: 0, count: max(byteCount, alignment))
    }

    public func typed<T>(_ type: T.Type) -> UnsafeMutablePointer<T> {
        base.assumingMemoryBound(to: type)
    }

    deinit { bk_free(base) }
}
