/// `[sync]`: how colour and depth frames are paired.
public struct SyncSettings: Equatable, Sendable {
    /// Largest kernel-timestamp difference of a colour/depth pair, milliseconds; 0 means half a
    /// frame period, the widest tolerance that can never pair a frame with its neighbour's partner.
    public var toleranceMS: Int = 0

    public init() {}

    /// The tolerance in nanoseconds for a stream running at `fps`.
    public func toleranceNanoseconds(fps: Int) -> UInt64 {
        if toleranceMS > 0 { return UInt64(toleranceMS) * 1_000_000 }
        return 500_000_000 / UInt64(max(fps, 1))
    }
}
