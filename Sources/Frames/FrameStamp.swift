/// When and in which order the kernel produced a frame: CLOCK_MONOTONIC nanoseconds and the
/// driver's sequence number. Never wall-clock time.
public struct FrameStamp: Equatable, Sendable {
    public var nanoseconds: UInt64
    public var sequence: UInt32

    public init(nanoseconds: UInt64, sequence: UInt32) {
        self.nanoseconds = nanoseconds
        self.sequence = sequence
    }
}
