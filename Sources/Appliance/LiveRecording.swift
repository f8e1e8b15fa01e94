import Capture
import Compose
import Frames
import KernelIO
import Runtime
import Scenes
import Settings

/// `backdrop record` from the configured V4L2 cameras: frames are paired as they come (the
/// first depth frame after each colour frame, or the other way round: at most a frame apart,
/// which is what the live matte gets too), converted to RGB for the colour PNG and written in
/// the recording layout with the unit, registration and intrinsics in force. Off the frame path
/// (a command of its own), so the PNG writer may allocate.
enum LiveRecording {
    /// No frame for this long means the camera is not delivering.
    static let stallNanoseconds: UInt64 = 5_000_000_000

    static func record(camera: CameraSettings, frames: Int, out: String) throws(CommandFailure) {
        let source: V4L2Source
        do throws(CaptureError) {
            source = try V4L2Source(configuration: DeviceSettings.sourceConfiguration(camera))
        } catch {
            throw .runtime("cannot open the camera: \(error.message) "
                           + "(check [camera] color_device/depth_device, or record a recording or a --scene)")
        }
        let format = source.colorFormat
        guard format == .yuyv || format == .nv12 || format == .rgb24 else {
            throw .runtime("the camera gives \(format.name) colour; record takes YUYV, NV12 or RGB24")
        }
        StandardOutput.line("record: \(source.summary)")
        var settings = RecordCommand.recordingSettings(
            registered: camera.registered, intrinsics: camera.depthIntrinsics, unitMM: source.depthUnitMM,
            frameRate: source.frameRate)
        // Stated, so a registered camera whose depth is another size still reads back (resampled).
        settings.depthSize = source.depthSize
        let colour = try FrameMemory.buffer(.rgb24, source.colorSize)
        let depth = try FrameMemory.buffer(.z16, source.depthSize)
        var written = 0
        var failure: String? = nil
        do throws(RecordingError) {
            var writer = try RecordingWriter(path: out, settings: settings, withTruth: false)
            while written < frames {
                failure = nextPair(source, colour: colour.view, depth: depth.view)
                if failure != nil { break }
                try writer.append(color: colour.view, depth: depth.view, truth: nil)
                written += 1
            }
        } catch {
            throw .runtime(error.message)
        }
        if let failure {
            throw .runtime("\(failure) (the \(written) frame" + (written == 1 ? "" : "s") + " before it are kept in \(out))")
        }
        StandardOutput.line("record: \(written) frame" + (written == 1 ? "" : "s") + " to \(out)")
    }

    /// Waits for one colour and one depth frame and copies them out (colour as RGB24); what went
    /// wrong, if it did.
    private static func nextPair(_ source: V4L2Source, colour: ImageView, depth: ImageView) -> String? {
        var haveColour = false
        var haveDepth = false
        var waitedSince = MonotonicClock.nowNanoseconds()
        while !(haveColour && haveDepth) {
            switch source.nextEvent(timeoutNanoseconds: 100_000_000) {
            case .color(let slot, _):
                ColourConversion.rgb24(from: source.colorView(slot: slot), into: colour)
                source.releaseColor(slot: slot)
                haveColour = true
                waitedSince = MonotonicClock.nowNanoseconds()
            case .depth(let slot, _):
                let view = source.depthView(slot: slot)
                for y in 0..<depth.size.height {
                    depth.row(y).copyMemory(from: view.row(y), byteCount: depth.size.width * 2)
                }
                source.releaseDepth(slot: slot)
                haveDepth = true
                waitedSince = MonotonicClock.nowNanoseconds()
            case .idle:
                if MonotonicClock.nowNanoseconds() - waitedSince > stallNanoseconds {
                    return "the camera delivered no frame for 5 s"
                }
            case .ended, .disconnected:
                return "the camera went away"
            }
        }
        return nil
    }
}
