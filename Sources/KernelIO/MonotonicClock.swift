import CKernel

/// CLOCK_MONOTONIC, the clock V4L2 buffer timestamps, page-flip events and GPIO edges use.
public enum MonotonicClock {
    public static func nowNanoseconds() -> UInt64 { bk_monotonic_ns() }
    public static func sleep(nanoseconds: UInt64) { bk_sleep_ns(nanoseconds) }
}
