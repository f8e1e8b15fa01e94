/// What arrived on a SignalChannel since it was last drained, folded by meaning.
public struct PendingSignals {
    /// TERM or INT: the signal that asks to stop.
    public var stop: Int32? = nil
    /// HUP: reload the config.
    public var reload = false
    /// USR1: print the statistics.
    public var statistics = false
    /// USR2: save a picture of what the display shows (where the display can capture it).
    public var screenCapture = false

    public init() {}
}
