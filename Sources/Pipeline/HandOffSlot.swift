import Synchronization

/// A one-value mailbox between exactly two threads: one producer `put`s, one consumer `take`s.
/// The value is written before the release store of `full` and read after the acquire load that
/// sees it, so the consumer sees the whole value the producer wrote, and the producer may not
/// write again until the consumer took it (`put` answers false instead of overwriting). Storage
/// is allocated once; put and take never allocate, never block. Carry values (slot indices,
/// views of buffers whose owner keeps them mapped), not references to mutable state.
public final class HandOffSlot<Value> {
    private let full = Atomic<Bool>(false)
    private let storage: UnsafeMutablePointer<Value>

    public init(placeholder: Value) {
        storage = .allocate(capacity: 1)
        storage.initialize(to: placeholder)
    }

    /// Producer only. False (nothing written) while the previous value is still untaken.
    @discardableResult
    public func put(_ value: Value) -> Bool {
        guard !full.load(ordering: .acquiring) else { return false }
        storage.pointee = value
        full.store(true, ordering: .releasing)
        return true
    }

    /// Consumer only. The value, or nil when none is waiting.
    public func take() -> Value? {
        guard full.load(ordering: .acquiring) else { return nil }
        let value = storage.pointee
        full.store(false, ordering: .releasing)
        return value
    }

    deinit {
        storage.deinitialize(count: 1)
        storage.deallocate()
    }
}
