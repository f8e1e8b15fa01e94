/// A frame waiting for its partner: which slot holds it and when the kernel stamped it.
struct PendingFrame {
    let slot: Int
    let nanoseconds: UInt64
}
