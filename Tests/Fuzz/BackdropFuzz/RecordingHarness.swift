import Scenes

enum RecordingHarness {
    static func run(_ bytes: UnsafeRawBufferPointer, scratch: ScratchFile) {
        guard scratch.write(bytes) else { return }
        do throws(RecordingError) {
            let settings = try RecordingSettings.load(path: scratch.path)
            precondition(settings.unitMM > 0 && settings.unitMM.isFinite && settings.frameRate > 0,
                         "accepted a unit or rate out of range")
            if let intrinsics = settings.intrinsics {
                precondition(intrinsics.fx > 0 && intrinsics.fy > 0 && intrinsics.cx.isFinite && intrinsics.cy.isFinite,
                             "accepted intrinsics a projection cannot use")
            }
        } catch {
            _ = error.message
        }
    }
}
