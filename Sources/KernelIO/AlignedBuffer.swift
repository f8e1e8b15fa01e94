import CKernel

/// Owns one block of frame memory, 64-byte aligned for wide SIMD loads; freed in `deinit`.
/// Allocated at start-up only: the frame path borrows, never creates, these.
public struct AlignedBuffer: ~Copyable {
    public let base: UnsafeMutableRawPointer
    public let byteCount: Int

    /// Throws ENOMEM when the memory is not there: sizes come from config and image headers (a
    /// 64-megapixel backdrop asks for 192 MiB), so a refusal is input to report, not a crash.
    public init(byteCount: Int, alignment: Int = 64) throws(SystemError) {
        precondition(byteCount >= 0)
        guard let memory = bk_aligned_alloc(alignment, max(byteCount, alignment)) else {
            throw SystemError("allocating \(byteCount) bytes of frame memory", .outOfMemory)
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
