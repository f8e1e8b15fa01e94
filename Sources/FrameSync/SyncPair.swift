/// A colour frame and the depth frame taken at (nearly) the same instant.
public struct SyncPair: Equatable {
    public let colorSlot: Int
    public let depthSlot: Int
    public let colorNanoseconds: UInt64
    public let depthNanoseconds: UInt64

    /// The earlier of the two capture times: latency is measured from here.
    public var captureNanoseconds: UInt64 { min(colorNanoseconds, depthNanoseconds) }
}
