import KernelIO

/// $BACKDROP_TEST_DISPLAY_AWAY_FILE, for the end-to-end test only (unset on a real box): vkms
/// cannot unplug its connector, so while this file exists the display reads as unplugged
/// (`KMSSink.simulatesUnplug`). The booth's display-away path then runs on the virtual board as
/// it would for a pulled HDMI cable, and removing the file brings the display back through a real
/// re-modeset. Looked at no more than five times a second, by the loop (one fstatat).
final class DisplayAwayProbe {
    private let folder: DirectoryDescriptor
    private let name: String
    private var lastLook: UInt64 = 0

    static func from(_ options: RuntimeOptions) -> DisplayAwayProbe? {
        guard let path = options.displayAwayFile else { return nil }
        let parts = DurablePath.split(path)
        do throws(SystemError) {
            let probe = DisplayAwayProbe(folder: try DirectoryDescriptor.open(parts.folder), name: parts.name)
            Log.warning("display: unplugged while \(path) exists (BACKDROP_TEST_DISPLAY_AWAY_FILE)")
            return probe
        } catch {
            Log.warning("BACKDROP_TEST_DISPLAY_AWAY_FILE=\(path): \(error.message); ignored")
            return nil
        }
    }

    private init(folder: consuming DirectoryDescriptor, name: String) {
        self.folder = folder
        self.name = name
    }

    /// Whether the file exists, or nil when it was looked at less than 200 ms ago.
    func away(now: UInt64) -> Bool? {
        guard now &- lastLook >= 200_000_000 else { return nil }
        lastLook = now
        do throws(SystemError) { return try folder.statusIfPresent(name) != nil } catch { return nil }
    }
}
