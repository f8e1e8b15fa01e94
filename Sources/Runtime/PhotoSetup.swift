import KernelIO
import Photos
import Settings

/// `[photos]` turned into the shutter's parts: the writer on its own thread (its folder made and
/// tidied, buffers for `layout` allocated now, not at the shutter) and the capture that feeds it.
/// A folder that cannot be set up does not stop the box: the live view runs, and the shutter
/// says on screen why no photo is taken.
enum PhotoSetup {
    static func shutter(_ settings: PhotoSettings, layout: PhotoLayout, loop: EventLoop,
                        cpuMask: UInt64, renameDelayMS: Int32?) throws(CommandFailure) -> (writer: PhotoWriter?, capture: ShutterCapture) {
        do throws(SystemError) {
            let finished = try WakeSignal()
            var writer: PhotoWriter? = nil
            var failure = ""
            do throws(PhotoError) {
                writer = try PhotoWriter(directory: settings.directory, layout: layout, cpuMask: cpuMask,
                                         notify: { finished.signal() }, beforeRename: renameDelay(renameDelayMS))
                let layers = settings.keepLayers ? " with colour, alpha and depth PNGs" : ""
                Log.info("photos: JPEG into \(settings.directory)\(layers), countdown \(settings.countdownSeconds) s")
            } catch {
                Log.warning("photos off: \(error.message) (check [photos] directory)")
                failure = "NO PHOTOS FOLDER: SEE THE LOG"
            }
            let capture = try ShutterCapture(writer: writer, resultWake: finished, setupFailure: failure, loop: loop)
            return (writer, capture)
        } catch {
            throw .runtime("cannot set up the photo writer: \(error.message)")
        }
    }

    /// $BACKDROP_TEST_RENAME_DELAY_MS: the end-to-end test's window for killing the process
    /// mid-save (each file waits that long, written and fsynced, under its temporary name). On the
    /// writer's thread only, so the live view does not notice; unset on a real box.
    private static func renameDelay(_ ms: Int32?) -> (@Sendable (String) -> Bool)? {
        guard let ms else { return nil }
        Log.warning("photos: every file waits \(ms) ms before its rename (BACKDROP_TEST_RENAME_DELAY_MS)")
        return { _ in
            do throws(SystemError) { _ = try Semaphore().wait(timeoutMilliseconds: ms) } catch {}
            return true
        }
    }

    /// SIGUSR2's pictures of the screen go beside the photos, in their own folder (they are not
    /// photos: the stick export leaves them). Nil (said why) when the event loop refuses it.
    static func screens(_ settings: PhotoSettings, loop: EventLoop, cpuMask: UInt64) -> ScreenCapture? {
        do throws(SystemError) {
            return try ScreenCapture(directory: settings.directory + "/screens", cpuMask: cpuMask, loop: loop)
        } catch {
            Log.warning("screen captures off: \(error.message)")
            return nil
        }
    }
}
