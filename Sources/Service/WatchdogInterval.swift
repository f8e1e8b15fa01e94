/// The watchdog period systemd expects pings within, decoded from `WATCHDOG_USEC` and
/// `WATCHDOG_PID` as sd_watchdog_enabled(3) does: the period applies to this process only when
/// WATCHDOG_PID is unset or names it (a child that inherited the variables must not ping).
public struct WatchdogInterval: Equatable, Sendable {
    public let microseconds: UInt64

    /// nil when no watchdog is asked of this process (variables unset, zero, malformed, or for
    /// another PID). Malformed values are treated as unset, as libsystemd does.
    public init?(usec: String?, pid: String?, ownPID: Int32) {
        guard let usec, let value = UInt64(usec), value > 0 else { return nil }
        if let pid {
            guard let named = Int32(pid), named == ownPID else { return nil }
        }
        microseconds = value
    }

    /// How often to ping: half the period, as systemd.service(5) recommends, so one late
    /// heartbeat does not trip it.
    public var pingEveryNanoseconds: UInt64 { microseconds &* 500 }
}
