/// ButtonClassifier's memory of one line: the level it last accepted and the raw level since.
struct LineState {
    var stable = false
    var raw = false
    var rawTime: UInt64 = 0
    var lockUntil: UInt64 = 0
    var pressStart: UInt64 = 0
    var heldReported = false
    /// Down together with the other backdrop button since its press: its release says nothing.
    var chorded = false
}
