import Backgrounds
import Booth
import Frames
import KernelIO
import Pipeline
import Settings

/// The backdrop set the box shows, stepped through by the buttons and replaced by a rescan of the
/// folder (SIGHUP): the new set is loaded on `BackdropRescan`'s thread and published as a
/// generation that compute takes at its next frame boundary, so neither the load nor the switch
/// ever holds the frame path. I/O thread only.
///
/// The generation carries a view into the library's memory (see `FrameGeneration`), so a replaced
/// library is kept until compute can no longer read it: once a frame handed off after the publish
/// exists, the frame before it (the last with the old view) has finished, because compute holds
/// one frame at a time. A rescan finished before that waits in its hand-off until then.
///
/// The same for every source and sink (`backdrop run` on the devices and on the synthetic scene
/// or a recording), so a SIGHUP means the same everywhere.
final class LiveBackdrops {
    private(set) var library: BackgroundLibrary
    private var retired: (library: BackgroundLibrary, untilHandedOff: Int)? = nil
    private let rescanner: BackdropRescan?
    /// Where the display composes the backdrop itself (its own plane), the new one is copied there
    /// too (nil: the CPU blend reads it from the generation only).
    private let plane: ((ImageView) -> Void)?

    init(_ library: BackgroundLibrary, loop: EventLoop, cpuMask: UInt64, plane: ((ImageView) -> Void)? = nil) {
        self.library = library
        self.plane = plane
        do throws(SystemError) { rescanner = try BackdropRescan(loop: loop, cpuMask: cpuMask) } catch {
            Log.warning("backdrop rescans off (SIGHUP reloads the config only): \(error.message)")
            rescanner = nil
        }
    }

    var currentName: String { library.currentName }

    /// A button's step through the set, shown from the next frame.
    func step<Source: FrameSource & ~Copyable, Sink: FrameSink & ~Copyable>(
        _ step: BackdropStep, runner: PipelineRunner<Source, Sink>
    ) {
        if step == .next { library.next() } else { library.previous() }
        // A file changed or removed since the load shows as the gradient; say which, once.
        for problem in library.takeProblems() { Log.warning(problem) }
        show(runner)
    }

    /// Starts loading `settings`' backdrop folder again; the result comes through `iterate`.
    /// Nil when started, else what to show (a rescan already under way).
    func rescan(_ settings: Settings, outputSize: FrameSize) -> String? {
        guard let rescanner else { return "BACKDROPS NOT RESCANNED" }
        let request = BackdropRescan.Request(directory: settings.background.directory, outputSize: outputSize,
                                             fit: settings.background.fit)
        return rescanner.start(request) ? nil : "STILL READING THE LAST BACKDROP FOLDER"
    }

    /// Call after every wake of the loop. A finished rescan becomes the set on screen, unless it
    /// found no usable image (then the set shown stays); returns what to show about it.
    func iterate<Source: FrameSource & ~Copyable, Sink: FrameSink & ~Copyable>(
        _ ready: UInt64, runner: PipelineRunner<Source, Sink>
    ) -> String? {
        if let retired, runner.pairsHandedOff >= retired.untilHandedOff { self.retired = nil }
        guard retired == nil, let rescanner, let loaded = rescanner.take(ready) else { return nil }
        for line in loaded.skipped + loaded.notices { Log.warning(line) }
        guard let rescanned = loaded.library else {
            Log.warning("backdrop rescan failed; keeping the \(library.count) backdrop(s) shown")
            return "BACKDROPS NOT RESCANNED: KEPT THE LAST SET"
        }
        if rescanned.usesBuiltInDefault && !library.usesBuiltInDefault {
            Log.warning("backdrop rescan found no usable image; keeping the \(library.count) backdrop(s) shown")
            return "NO USABLE BACKDROP FOUND: KEPT THE LAST SET"
        }
        retired = (library, runner.pairsHandedOff + 1)
        let shownName = library.currentName
        library = rescanned
        // The backdrop shown stays shown when the new set still has it (a rescan of the same folder).
        for index in 0..<library.count where library.name(at: index) == shownName {
            _ = library.select(index)
            break
        }
        show(runner)
        let count = library.usesBuiltInDefault ? 0 : library.count
        Log.info("backdrops rescanned: \(count) image(s), \(loaded.skipped.count) skipped")
        let skipped = loaded.skipped.isEmpty ? "" : ", \(loaded.skipped.count) SKIPPED"
        return count == 1 ? "1 BACKDROP" + skipped : "\(count) BACKDROPS" + skipped
    }

    func stop() { rescanner?.stop() }

    private func show<Source: FrameSource & ~Copyable, Sink: FrameSink & ~Copyable>(_ runner: PipelineRunner<Source, Sink>) {
        let backdrop = library.current
        runner.publish { $0.backdrop = backdrop }
        // On screen already: a torn frame at the switch is accepted.
        plane?(backdrop)
    }
}
