import Controls

/// The booth's behaviour as a pure function of events: inputs in, actions out. No I/O, no
/// threads, no clock: every input carries the CLOCK_MONOTONIC time it happened and the booth
/// asks for a wake-up (`armDeadline`) when it needs one; the loop owns the timerfd. Actions are
/// handed to `emit` synchronously, in the order the loop must carry them out.
///
/// The booth remembers facts (camera and display present, the photo's phase, an import under
/// way, the matte or camera view, a transient message) and `state` is derived from them, most
/// urgent first: displayAway, cameraAway, countdown / capturing / saving, importing, cameraView /
/// matteView (never both), live.
///
/// | state | input | next state | actions |
/// |---|---|---|---|
/// | live, matteView, cameraView, importing, saving, cameraAway | next / previous | same | switchBackdrop, showMessage(backdropName, 2 s) |
/// | countdown, capturing, displayAway | next / previous | same | none (people are posing, or nothing is seen) |
/// | live, matteView, cameraView, importing, saving, cameraAway | long shutter | same | switchLook, showMessage(lookName, 2 s) |
/// | countdown, capturing, displayAway | long shutter | same | none |
/// | live, importing (countdown_s > 0) | shutter | countdown(n) | showMessage(countdown n), armDeadline(+1 s) |
/// | live, importing (countdown_s = 0) | shutter | capturing | captureShownFrame |
/// | countdown(k > 1) | timer at the tick | countdown(k - 1) | showMessage(countdown k - 1), armDeadline(+1 s) |
/// | countdown(1) | timer at the tick | capturing | clearMessage (or the message underneath), captureShownFrame |
/// | countdown, capturing, saving, cameraAway, displayAway | shutter | same | none (one photo at a time) |
/// | matteView | shutter | matteView | showMessage(hint, 5 s) |
/// | cameraView | shutter | cameraView | showMessage(hint, 5 s) |
/// | capturing | frameCaptured | saving | startEncode |
/// | saving | photoSaved | the state underneath | showMessage(photoSaved, 2 s) |
/// | capturing, saving | photoFailed(reason) | the state underneath | showMessage(photoFailed, 5 s) |
/// | live | long next | matteView | setMatteView(true) |
/// | matteView | long next | live | setMatteView(false) |
/// | cameraView | long next | matteView | setCameraView(false), setMatteView(true) |
/// | importing | long next | importing (the matte shown underneath) | setMatteView(toggled), after setCameraView(false) if it was on |
/// | live | long previous | cameraView | setCameraView(true) |
/// | cameraView | long previous | live | setCameraView(false) |
/// | matteView | long previous | cameraView | setMatteView(false), setCameraView(true) |
/// | importing | long previous | importing (the camera shown underneath) | setCameraView(toggled), after setMatteView(false) if it was on |
/// | countdown, capturing, saving, cameraAway, displayAway | long next / long previous | same | none |
/// | any but importing | rollbackRequested, or rollback (next + previous held 5 s) | importing | rollback, showMessage(text) |
/// | importing | rollbackRequested / rollback | importing | none |
/// | any | deviceLost(camera) | cameraAway (countdown cancelled) | startReopening(camera), showMessage(cameraDisconnected) |
/// | cameraAway | deviceBack(camera) | the state underneath | clearMessage (or the message underneath) |
/// | any | deviceLost(display) | displayAway (countdown cancelled) | startReopening(display) |
/// | displayAway | deviceBack(display) | the state underneath | none (the message slot kept its text); after a countdown it cancelled: showMessage("PHOTO CANCELLED: PRESS AGAIN", 5 s) |
/// | any | notice(text) | same | showMessage(text, 5 s) (under the countdown: shown after it) |
/// | any | importStarted / importProgress(text) | importing | showMessage(text) |
/// | importing | importFinished(summary) / importFailed(reason) | the state underneath | showMessage(text, 6 s / 5 s) |
/// | any | importReported(text, failed) | same | showMessage(text, 6 s, or 5 s when failed) (under the countdown: shown after it); while an earlier one has been up less than 3 s (a failure: 5 s), it waits for then |
/// | any, a report waiting | timer at the earlier one's 3 s (5 s) | same | showMessage(the next report) |
/// | any with a transient message | timer at its end | same | the message underneath, or clearMessage |
///
/// A lost device already lost, a device back that was never lost, and worker results for a
/// photo not under way change nothing. Whenever the earliest pending time changes the booth
/// emits `armDeadline` (or `disarmDeadline` when nothing is pending).
public struct BoothMachine {
    /// Replaced on a config reload: the countdown is read at each shutter press, so a change
    /// takes effect from the next photo.
    public var configuration: BoothConfiguration

    private enum PhotoPhase: Equatable {
        case idle
        /// `tick` is when `remaining` drops by one.
        case countdown(remaining: Int, tick: UInt64)
        case capturing
        case saving
    }

    private struct Transient {
        var message: BoothMessage
        var until: UInt64
        /// Bumped for each new transient, so the same message set again (a second backdrop
        /// switch: same case, another name) is shown again.
        var serial: UInt64
    }

    private var cameraPresent = true
    private var displayPresent = true
    private var photo = PhotoPhase.idle
    private var matteView = false
    /// The camera's picture unmatted instead of the composite. At most one of the two views is
    /// on: each shows something else in place of the composite.
    private var cameraView = false
    /// A countdown the display's loss cancelled, to be said when it is back.
    private var countdownCancelled = false
    private var importText: String? = nil
    private var transient: Transient? = nil
    /// Stick outcomes (`importReported`) waiting for the one on screen to have been readable:
    /// one stick's import, photo export and unmount can end within a second, and each says
    /// something its owner needs (what came in, whether the photos are out, when to pull it).
    private var reports: [(text: String, failed: Bool)] = []
    /// Until when the report last shown keeps the next one waiting.
    private var reportHeldUntil: UInt64 = 0
    /// Reports kept waiting at most (three per stick: a fourth would be a second stick's, whose
    /// import outcome is still kept, only its oldest waiting words are dropped).
    static let reportsWaiting = 6
    private var serial: UInt64 = 0
    /// What the loop was last told to show (with the transient's serial), and the deadline armed.
    private var shown: (message: BoothMessage, serial: UInt64)? = nil
    private var armed: UInt64? = nil

    public init(configuration: BoothConfiguration = BoothConfiguration()) {
        self.configuration = configuration
    }

    public var state: BoothState {
        if !displayPresent { return .displayAway }
        if !cameraPresent { return .cameraAway }
        switch photo {
        case .countdown(let remaining, _): return .countdown(remaining: remaining)
        case .capturing: return .capturing
        case .saving: return .saving
        case .idle: break
        }
        if importText != nil { return .importing }
        if cameraView { return .cameraView }
        return matteView ? .matteView : .live
    }

    /// True while the matte is shown instead of the composite (kept while a device is away).
    public var showsMatte: Bool { matteView }

    /// True while the camera's picture is shown unmatted instead of the composite (kept while a
    /// device is away, as the matte view is: whoever is aiming the camera may be replugging it).
    public var showsCamera: Bool { cameraView }

    /// The earliest CLOCK_MONOTONIC time the booth needs a `.timer` input, or nil.
    public var nextDeadline: UInt64? {
        var earliest: UInt64? = nil
        if case .countdown(_, let tick) = photo { earliest = tick }
        if let transient { earliest = min(earliest ?? transient.until, transient.until) }
        if !reports.isEmpty { earliest = min(earliest ?? reportHeldUntil, reportHeldUntil) }
        return earliest
    }

    /// Handles one input that happened at `now` (CLOCK_MONOTONIC nanoseconds, not earlier than
    /// the previous input's). Whatever fell due by `now` (a countdown step, a message's end) is
    /// taken first.
    public mutating func handle(_ input: BoothInput, at now: UInt64, emit: (BoothAction) -> Void) {
        advance(to: now, emit: emit)
        switch input {
        case .button(let intent):
            press(intent, at: now, emit: emit)
        case .rollbackRequested:
            requestRollback(emit: emit)
        case .deviceLost(let device):
            guard present(device) else { break }
            setPresent(device, false)
            if case .countdown = photo {
                photo = .idle
                // Nothing can be shown while the display is away: the cancel is said when it is back.
                if device == .display { countdownCancelled = true }
            }
            emit(.startReopening(device))
        case .deviceBack(let device):
            guard !present(device) else { break }
            setPresent(device, true)
            if device == .display && countdownCancelled {
                countdownCancelled = false
                show(.text("PHOTO CANCELLED: PRESS AGAIN"), for: configuration.failureNanoseconds, at: now)
            }
        case .timer:
            break
        case .notice(let text):
            show(.text(text), for: configuration.failureNanoseconds, at: now)
        case .frameCaptured:
            guard photo == .capturing else { break }
            photo = .saving
            emit(.startEncode)
        case .photoSaved:
            guard photo == .saving else { break }
            photo = .idle
            show(.photoSaved, for: configuration.photoSavedNanoseconds, at: now)
        case .photoFailed(let reason):
            guard photo == .capturing || photo == .saving else { break }
            photo = .idle
            show(.photoFailed(reason), for: configuration.failureNanoseconds, at: now)
        case .importStarted:
            importText = "READING USB STICK"
        case .importProgress(let text):
            importText = text
        case .importFinished(let summary):
            guard importText != nil else { break }
            importText = nil
            show(.text(summary), for: configuration.importSummaryNanoseconds, at: now)
        case .importFailed(let reason):
            guard importText != nil else { break }
            importText = nil
            show(.text(reason), for: configuration.failureNanoseconds, at: now)
        case .importReported(let text, let failed):
            if reports.count == Self.reportsWaiting { reports.removeFirst() }
            reports.append((text, failed))
            showDueReport(at: now)
        }
        syncMessage(emit: emit)
        syncDeadline(emit: emit)
    }

    private mutating func press(_ intent: ButtonIntent, at now: UInt64, emit: (BoothAction) -> Void) {
        switch intent {
        case .nextBackdrop, .previousBackdrop:
            guard displayPresent else { return }
            if case .countdown = photo { return }
            if photo == .capturing { return }
            emit(.switchBackdrop(intent == .nextBackdrop ? .next : .previous))
            show(.backdropName, for: configuration.backdropNameNanoseconds, at: now)
        case .nextLook:
            guard displayPresent else { return }
            if case .countdown = photo { return }
            if photo == .capturing { return }
            emit(.switchLook)
            show(.lookName, for: configuration.backdropNameNanoseconds, at: now)
        case .takePhoto:
            guard displayPresent, cameraPresent, photo == .idle else { return }
            if matteView {
                show(.text("MATTE VIEW: HOLD NEXT TO LEAVE IT FIRST"), for: configuration.failureNanoseconds, at: now)
                return
            }
            if cameraView {
                // The photo would be of the unmatted camera picture, not of anyone over a backdrop.
                show(.text("CAMERA VIEW: HOLD PREVIOUS TO LEAVE IT FIRST"), for: configuration.failureNanoseconds, at: now)
                return
            }
            if configuration.countdownSeconds == 0 {
                capture(emit: emit)
            } else {
                photo = .countdown(remaining: configuration.countdownSeconds, tick: now &+ BoothConfiguration.secondNanoseconds)
            }
        case .toggleMatteView:
            guard displayPresent, cameraPresent, photo == .idle else { return }
            // Off before on, so the loop never has both views asked for at once.
            if !matteView && cameraView {
                cameraView = false
                emit(.setCameraView(false))
            }
            matteView.toggle()
            emit(.setMatteView(matteView))
        case .toggleCameraView:
            // Refused exactly when the matte view's toggle is (a photo under way, a device away):
            // the two are the same kind of set-up view and a person holding previous should not
            // have to learn two sets of exceptions.
            guard displayPresent, cameraPresent, photo == .idle else { return }
            if !cameraView && matteView {
                matteView = false
                emit(.setMatteView(false))
            }
            cameraView.toggle()
            emit(.setCameraView(cameraView))
        case .rollback:
            requestRollback(emit: emit)
        }
    }

    /// The rollback gesture or `rollbackRequested`: the loop switches the generation and answers
    /// with `importFinished` ("ROLLED BACK") or `importFailed` (why not); one at a time.
    private mutating func requestRollback(emit: (BoothAction) -> Void) {
        guard importText == nil else { return }
        importText = "GOING BACK TO THE PREVIOUS SET"
        emit(.rollback)
    }

    /// Takes what fell due by `now`: countdown steps (several, if the loop was late) and the end
    /// of a transient message.
    private mutating func advance(to now: UInt64, emit: (BoothAction) -> Void) {
        while case .countdown(let remaining, let tick) = photo, now >= tick {
            if remaining > 1 {
                photo = .countdown(remaining: remaining - 1, tick: tick &+ BoothConfiguration.secondNanoseconds)
            } else {
                capture(emit: emit)
            }
        }
        if let transient, now >= transient.until { self.transient = nil }
        showDueReport(at: now)
    }

    /// The next waiting stick outcome, once the one before it has been up long enough to read.
    private mutating func showDueReport(at now: UInt64) {
        guard !reports.isEmpty, now >= reportHeldUntil else { return }
        let report = reports.removeFirst()
        let duration = report.failed ? configuration.failureNanoseconds : configuration.importSummaryNanoseconds
        show(.text(report.text), for: duration, at: now)
        reportHeldUntil = now &+ (report.failed ? duration : min(duration, configuration.reportReadNanoseconds))
    }

    /// The digits (or whatever else) leave the screen first, so the frame captured is the
    /// picture without them.
    private mutating func capture(emit: (BoothAction) -> Void) {
        photo = .capturing
        syncMessage(emit: emit)
        emit(.captureShownFrame)
    }

    private mutating func show(_ message: BoothMessage, for duration: UInt64, at now: UInt64) {
        serial &+= 1
        transient = Transient(message: message, until: now &+ duration, serial: serial)
    }

    /// What belongs on screen now, most urgent first, and until when.
    private var wanted: (message: BoothMessage, serial: UInt64, until: UInt64?)? {
        if case .countdown(let remaining, _) = photo { return (.countdown(remaining), 0, nil) }
        if photo == .capturing { return nil }
        if let transient { return (transient.message, transient.serial, transient.until) }
        if !cameraPresent { return (.cameraDisconnected, 0, nil) }
        if let importText { return (.text(importText), 0, nil) }
        return nil
    }

    private mutating func syncMessage(emit: (BoothAction) -> Void) {
        guard let wanted else {
            if shown != nil { emit(.clearMessage) }
            shown = nil
            return
        }
        if let shown, shown.message == wanted.message && shown.serial == wanted.serial { return }
        shown = (wanted.message, wanted.serial)
        emit(.showMessage(wanted.message, until: wanted.until))
    }

    private mutating func syncDeadline(emit: (BoothAction) -> Void) {
        let next = nextDeadline
        guard next != armed else { return }
        armed = next
        emit(next.map { .armDeadline(at: $0) } ?? .disarmDeadline)
    }

    private func present(_ device: BoothDevice) -> Bool {
        device == .camera ? cameraPresent : displayPresent
    }

    private mutating func setPresent(_ device: BoothDevice, _ value: Bool) {
        if device == .camera { cameraPresent = value } else { displayPresent = value }
    }
}
