import KernelIO
import Looks
import Settings

/// The looks the look gesture steps through on the box (`[looks] cycle`, starting at `start`),
/// each resolved and folded once when the session starts, never on a press. A name that does not
/// resolve is logged and left out; with none left, "none". I/O thread only.
/// The people's part of a look goes live at once (a generation, `FrameGeneration.peopleLook`);
/// a look that also touches the backdrop changes only the people live (the backdrop's part is
/// applied at decode, which the live ring does not redo on a look switch yet).
final class LookCycle {
    private let looks: [PreparedLook]
    private var index = 0

    init(_ settings: LookSettings) {
        var made: [PreparedLook] = []
        var names = settings.cycle
        if !names.contains(settings.start) { names.insert(settings.start, at: 0) }
        for name in names {
            do throws(CommandFailure) {
                made.append(try LookChoice.resolve(name, directory: settings.directory))
            } catch {
                Log.warning("looks: \(name) left out of the cycle: \(error.message)")
            }
        }
        if made.isEmpty { made = [PreparedLook(Look(name: "none", steps: []))] }
        looks = made
        index = made.firstIndex { $0.name == settings.start } ?? 0
    }

    var current: PreparedLook { looks[index] }

    func next() { index = (index + 1) % looks.count }
}
