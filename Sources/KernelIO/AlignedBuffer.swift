import CKernel

/// Owns one block of frame memory, 64-byte aligned for wide SIMD loads; freed in `deinit`.
/// Allocated at start-up only: the frame path borrows, never creates, these.
public struct AlignedBuffer: ~Copyable {
    public let base: UnsafeMutableRawPointer
    public let byteCount: Int
    /// Mapped pages (the guarded layout, `GuardedPlanes`): their length; 0 for the heap.
    private let mappedLength: Int

    /// Throws ENOMEM when the memory is not there: sizes come from config and image headers (a
    /// 64-megapixel backdrop asks for 192 MiB), so a refusal is input to report, not a crash.
    public init(byteCount: Int, alignment: Int = 64) throws(SystemError) {
        precondition(byteCount >= 0)
        guard let memory = bk_aligned_alloc(alignment, max(byteCount, alignment)) else {
            throw SystemError("allocating \(byteCount) bytes of frame memory", .outOfMemory)
        }
        memory.initializeMemory(as: UInt8.self, repeating: 0, count: max(byteCount, alignment))
        self.init(base: memory, byteCount: byteCount, mappedLength: 0)
    }

    /// `init(byteCount:)`, or for a guarded layout (`guardPage` > 0) zeroed anonymous pages
    /// (mapped memory is zero) with the pages at `guards` made inaccessible.
    init(byteCount: Int, guardPage: Int, guards: [Int]) throws(SystemError) {
        precondition(byteCount >= 0)
        if guardPage == 0 {
            try self.init(byteCount: byteCount)
            return
        }
        let length = max(byteCount, 1)
        guard let memory = bk_guarded_alloc(length) else {
            throw SystemError("allocating \(byteCount) bytes of guarded frame memory", .outOfMemory)
        }
        for offset in guards {
            let result = bk_guard_pages(memory + offset, guardPage)
            if result != 0 {
                bk_guarded_free(memory, length)
                throw SystemError("guarding frame memory (mprotect)", Errno(result))
            }
        }
        self.init(base: memory, byteCount: byteCount, mappedLength: length)
    }

    private init(base: UnsafeMutableRawPointer, byteCount: Int, mappedLength: Int) {
        self.base = base
        self.byteCount = byteCount
        self.mappedLength = mappedLength
    }

    public func typed<T>(_ type: T.Type) -> UnsafeMutablePointer<T> {
        base.assumingMemoryBound(to: type)
    }

    deinit {
        if mappedLength > 0 { bk_guarded_free(base, mappedLength) } else { bk_free(base) }
    }
}
