/// What the booth is doing, as the screen and the buttons show it. Derived by `BoothMachine`
/// from what it knows (devices present, the photo under way, an import, the matte or camera
/// view), so
/// states that overlap in time (a photo still saving when the camera is unplugged) need no
/// combined cases: the more urgent fact names the state.
public enum BoothState: Equatable, Sendable {
    /// The composite at full rate; every button works.
    case live
    /// Counting down to a photo; `remaining` seconds are on screen.
    case countdown(remaining: Int)
    /// The count reached zero; the loop is copying the frame shown then.
    case capturing
    /// The photo's frame is copied; a worker encodes and writes it while the live view runs.
    case saving
    /// The matte in grey instead of the composite, for setting thresholds.
    case matteView
    /// The camera's picture as it is, unmatted, over the whole screen, for aiming the camera.
    case cameraView
    /// The camera went away; the screen says so while the loop reopens it.
    case cameraAway
    /// No display; nothing can be shown until one is back.
    case displayAway
    /// A USB stick is being read; the screen shows the import's progress.
    case importing
}
