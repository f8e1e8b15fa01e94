/// What arrived on a SignalChannel since it was last drained, folded by meaning.
public struct PendingSignals {
    /// TERM or INT: the signal that asks to stop.
    public var stop: Int32? = nil
    /// HUP: reload the config.
    public var reload = false
    /// USR1: print the statistics.
    public var statistics = false

    public init() {}
}
