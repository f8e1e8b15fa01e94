import Scenes

enum RecordingHarness {
    static func run(_ bytes: UnsafeRawBufferPointer, scratch: ScratchFile) {
        guard scratch.write(bytes) else { return }
        do throws(RecordingError) {
            let settings = try RecordingSettings.load(path: scratch.path)
            precondition(settings.unitMM > 0 && settings.frameRate > 0, "accepted a unit or rate out of range")
        } catch {
            _ = error.message
        }
    }
}
