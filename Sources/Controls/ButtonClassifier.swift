/// Turns raw edges of the button lines into debounced gestures: short press, held, long press.
///
/// Pure: no I/O and no clock of its own. The caller feeds kernel edge events in arrival order and
/// calls `advance(to:)` when `nextDeadline` passes (a timerfd on the I/O thread), because a held
/// button and a bounce that settles produce no further edge. Gestures are handed to `emit`
/// synchronously; nothing is allocated.
///
/// Debounce is a lock-out: the first edge of a burst is taken at once (no added latency) and
/// further edges on that line within `debounce` only update the raw level; if the level at the end
/// of the window differs from the accepted one, that change is taken when the window closes. With
/// kernel debounce the caller passes 0 and every edge counts.
///
/// Next and previous down together are a chord, not two presses: held together for
/// `chordNanoseconds` they give `bothHeld` once, and whatever happens, neither release gives a
/// short or long press (the previous backdrop would flash by, the matte or camera view would
/// toggle).
public struct ButtonClassifier {
    public let debounceNanoseconds: UInt64
    public let longPressNanoseconds: UInt64
    /// How long next and previous must be held together for `bothHeld` (the rollback gesture).
    public let chordNanoseconds: UInt64
    private var lines: [LineState]
    /// When next and previous were last both down (the later press), while they still are.
    private var chordStart: UInt64? = nil
    private var chordReported = false

    /// - debounceMS: edges closer than this after an accepted one are bounce (0 = kernel debounces).
    /// - longPressMS: a press lasting at least this long is a long press.
    /// - chordMS: next and previous held together this long roll back (see `bothHeld`).
    public init(debounceMS: Int, longPressMS: Int, chordMS: Int = 5000) {
        precondition(debounceMS >= 0 && longPressMS > 0 && chordMS > 0)
        debounceNanoseconds = UInt64(debounceMS) * 1_000_000
        longPressNanoseconds = UInt64(longPressMS) * 1_000_000
        chordNanoseconds = UInt64(chordMS) * 1_000_000
        lines = [LineState](repeating: LineState(), count: ButtonRole.allCases.count)
    }

    /// The debounced state: true while the button is down.
    public func isPressed(_ role: ButtonRole) -> Bool { lines[Int(role.rawValue)].stable }

    /// The earliest CLOCK_MONOTONIC time at which `advance(to:)` could emit something, or nil when
    /// nothing is pending (no timer needed).
    public var nextDeadline: UInt64? {
        var earliest: UInt64? = nil
        for line in lines {
            if line.raw != line.stable { earliest = Self.earlier(earliest, line.lockUntil) }
            if line.stable && !line.heldReported && !line.chorded {
                earliest = Self.earlier(earliest, line.pressStart &+ longPressNanoseconds)
            }
        }
        if let chordStart, !chordReported { earliest = Self.earlier(earliest, chordStart &+ chordNanoseconds) }
        return earliest
    }

    public mutating func handle(_ edge: ButtonEdge, emit: (ButtonGesture) -> Void) {
        advance(to: edge.nanoseconds, emit: emit)
        let index = Int(edge.role.rawValue)
        lines[index].raw = edge.pressed
        lines[index].rawTime = edge.nanoseconds
        if edge.nanoseconds >= lines[index].lockUntil && edge.pressed != lines[index].stable {
            accept(index, pressed: edge.pressed, at: edge.nanoseconds, emit: emit)
        }
    }

    /// Emits what became due by `now`: a level that settled after a bounce window, and `held`.
    public mutating func advance(to now: UInt64, emit: (ButtonGesture) -> Void) {
        for index in lines.indices {
            if lines[index].raw != lines[index].stable && now >= lines[index].lockUntil {
                // The line settled on the other level inside the window (a tap shorter than the
                // window, or a bounce that ended opposite): it changed when its last edge came.
                accept(index, pressed: lines[index].raw, at: lines[index].rawTime, emit: emit)
            }
            let line = lines[index]
            let threshold = line.pressStart &+ longPressNanoseconds
            if line.stable && !line.heldReported && !line.chorded && now >= threshold {
                lines[index].heldReported = true
                emit(ButtonGesture(role: role(index), kind: .held, nanoseconds: threshold,
                                   durationNanoseconds: longPressNanoseconds))
            }
        }
        if let chordStart, !chordReported, now >= chordStart &+ chordNanoseconds {
            chordReported = true
            emit(ButtonGesture(role: .next, kind: .bothHeld, nanoseconds: chordStart &+ chordNanoseconds,
                               durationNanoseconds: chordNanoseconds))
        }
    }

    private mutating func accept(_ index: Int, pressed: Bool, at time: UInt64, emit: (ButtonGesture) -> Void) {
        lines[index].stable = pressed
        lines[index].lockUntil = time &+ debounceNanoseconds
        let next = Int(ButtonRole.next.rawValue), previous = Int(ButtonRole.previous.rawValue)
        let partner = index == next ? previous : index == previous ? next : nil
        if pressed {
            lines[index].pressStart = time
            lines[index].heldReported = false
            lines[index].chorded = false
            if let partner, lines[partner].stable {
                lines[index].chorded = true
                lines[partner].chorded = true
                chordStart = time
                chordReported = false
            }
            return
        }
        if lines[index].chorded {
            lines[index].chorded = false
            chordStart = nil
            return
        }
        let start = lines[index].pressStart
        let duration = time >= start ? time - start : 0
        if duration < longPressNanoseconds {
            emit(ButtonGesture(role: role(index), kind: .shortPress, nanoseconds: time, durationNanoseconds: duration))
            return
        }
        if !lines[index].heldReported {
            // Nobody advanced the clock during the press; keep the promise that `held` comes first.
            lines[index].heldReported = true
            emit(ButtonGesture(role: role(index), kind: .held, nanoseconds: start &+ longPressNanoseconds,
                               durationNanoseconds: longPressNanoseconds))
        }
        emit(ButtonGesture(role: role(index), kind: .longPress, nanoseconds: time, durationNanoseconds: duration))
    }

    private func role(_ index: Int) -> ButtonRole { ButtonRole(rawValue: UInt8(index))! }

    private static func earlier(_ a: UInt64?, _ b: UInt64) -> UInt64 {
        guard let a else { return b }
        return min(a, b)
    }
}
