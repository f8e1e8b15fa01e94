import CKernel
import Compose
import Frames
import ImageCodec
import KernelIO
import Synchronization

/// Saves photos on a thread of its own, so the encode and the fsyncs (tens to hundreds of
/// milliseconds) never hold the I/O or compute threads: the live view runs at full rate while a
/// photo is written.
///
/// Everything is allocated at start-up: the composite buffer, the layer buffers with
/// keep_layers, the JPEG compressor and its worst-case output buffer. (The layers' PNG encode
/// allocates inside libspng, once per photo, on this thread.) Each file goes through
/// `DurableFile`: temporary `.NAME.partial` in the folder, fsync, rename, fsync the folder, so a
/// power cut or a kill mid-save leaves no file under a final name. Layers are written before
/// the JPEG, so a JPEG that exists has its layers. Names: see `PhotoName`.
///
/// Hand-off, one photo at a time, through one atomic state (idle → captured → encoding → done):
/// - `capture` (the thread that owns the shown frame, at a frame boundary): idle → captured.
///   Copies the frame into the writer's buffers; returns false, copying nothing, unless idle.
///   `capture(layer:over:at:)` copies a camera layer and the backdrop under it instead; the
///   worker puts one over the other (the display's blend, with no writeback to read it back).
///   `stageLayers` (same thread, while idle) copies the layers ahead of a later composite.
/// - `startEncode` (same thread): captured → encoding, and wakes the worker. From here the
///   buffers belong to the worker.
/// - the worker encodes and writes, stores the result, sets done, then calls `notify` (on the
///   worker thread: signal the loop's eventfd there, nothing more).
/// - `takeResult` (the loop): done → idle, returning the result once; nil before.
/// The state's release/acquire pairs order the buffer writes and reads; nothing else is shared.
/// `stop()` must be called before the last reference goes: it lets a photo under way finish,
/// then joins the worker.
public final class PhotoWriter: @unchecked Sendable {
    public let directory: String
    public let layout: PhotoLayout
    /// The sequence number the next photo gets (see `PhotoName`); any thread.
    public var nextSequence: UInt64 { sequence.load(ordering: .relaxed) }

    private enum Phase: UInt8 {
        case idle, captured, encoding, done
    }

    private final class LayerBuffers {
        let colour: PixelBuffer
        let colourRGB: PixelBuffer
        let alpha: PixelBuffer
        let depth: PixelBuffer
        var has = (colour: false, alpha: false, depth: false)

        init(_ layers: PhotoLayout.Layers) throws(SystemError) {
            colour = try PixelBuffer(allocating: layers.colourFormat, size: layers.colourSize)
            colourRGB = try PixelBuffer(allocating: .rgb24, size: layers.colourSize)
            alpha = try PixelBuffer(allocating: .alpha8, size: layers.alphaSize)
            depth = try PixelBuffer(allocating: .z16, size: layers.depthSize)
        }
    }

    /// A class so the optional can be looked into without consuming the buffer.
    private final class Underlay {
        let buffer: PixelBuffer
        init(_ buffer: consuming PixelBuffer) { self.buffer = buffer }
    }

    private let folder: DirectoryDescriptor
    private let composite: PixelBuffer
    /// With `.layerOverBackdrop`: the backdrop under a captured camera layer (see `capture(layer:over:at:)`).
    private let backdrop: Underlay?
    /// With `.layerOverBackdrop` and a `layerPlacement`: the camera-sized layer captured, put
    /// over `backdrop` scaled as the display does, into `composite`.
    private let scaledLayer: Underlay?
    /// Written with the composite before `captured`: it is a layer to be put over `backdrop`.
    private var compositeIsLayer = false
    private let layers: LayerBuffers?
    private let compressor: JPEGCompressor
    private let wake: Semaphore
    private let phase = Atomic<UInt8>(Phase.idle.rawValue)
    private let stopRequested = Atomic<Bool>(false)
    private let notify: @Sendable () -> Void
    private let beforeRename: (@Sendable (String) -> Bool)?
    private var thread: WorkerThread? = nil
    // Written by the capturing thread before `captured`, read by the worker after `encoding`.
    private var capturedAt: UInt64 = 0
    // Advanced by the worker only (atomic so `nextSequence` can be read anywhere).
    private let sequence: Atomic<UInt64>
    // The worker's; read by the loop only after `done`.
    private var result: PhotoResult? = nil

    /// Makes `directory` (and its parents) if missing, removes temporaries a crash left there,
    /// finds the next sequence number, allocates the buffers and starts the worker.
    /// - cpuMask: the worker's CPUs (bit n = CPU n; 0 = unpinned).
    /// - beforeRename: for tests only; called on the worker with each final name just before its
    ///   rename. Returning false abandons the photo there, as a kill would.
    public init(directory: String, layout: PhotoLayout, quality: Int32 = 95, cpuMask: UInt64 = 0,
                notify: @escaping @Sendable () -> Void,
                beforeRename: (@Sendable (String) -> Bool)? = nil) throws(PhotoError) {
        self.directory = directory
        self.layout = layout
        self.notify = notify
        self.beforeRename = beforeRename
        do throws(SystemError) {
            try Self.makeFolders(directory)
            folder = try DirectoryDescriptor.open(directory)
            let names = try folder.entries().names
            sequence = Atomic(PhotoName.highestSequence(in: names) + 1)
            for name in names where name.hasPrefix("." + PhotoName.prefix) && name.hasSuffix(".partial") {
                try folder.removeFile(name)
            }
            wake = try Semaphore()
        } catch {
            throw PhotoError("photos folder \(directory): \(error.message)")
        }
        do throws(ImageError) {
            compressor = try JPEGCompressor(size: layout.compositeSize, quality: quality)
        } catch {
            throw PhotoError(error.message)
        }
        do throws(SystemError) {
            composite = try PixelBuffer(allocating: .xrgb8888, size: layout.compositeSize)
            if case .layerOverBackdrop = layout.planes {
                backdrop = Underlay(try PixelBuffer(allocating: .xrgb8888, size: layout.compositeSize))
                if let placement = layout.layerPlacement {
                    scaledLayer = Underlay(try PixelBuffer(allocating: .argb8888, size: placement.layerSize))
                } else {
                    scaledLayer = nil
                }
            } else {
                backdrop = nil
                scaledLayer = nil
            }
            if let kept = layout.layers { layers = try LayerBuffers(kept) } else { layers = nil }
        } catch {
            throw PhotoError("photo buffers: \(error.message)")
        }
        let worker = WorkerThread(name: "photo", cpuMask: cpuMask) { [self] in serve() }
        do throws(SystemError) { try worker.start() } catch {
            throw PhotoError("photo writer: \(error.message)")
        }
        thread = worker
    }

    /// Copies the frame to save. `composite` is the whole picture as shown (XRGB8888 or
    /// ARGB8888 at the layout's size); the layers are taken when the layout keeps them and they
    /// are given (a missing one is not written). `at`: CLOCK_MONOTONIC of the capture, for the
    /// name. False when a photo is already under way (nothing is copied).
    public func capture(composite view: ImageView, colour: ImageView? = nil, alpha: ImageView? = nil,
                        depth: ImageView? = nil, at nanoseconds: UInt64) -> Bool {
        guard stageLayers(colour: colour, alpha: alpha, depth: depth) else { return false }
        return capture(composite: view, at: nanoseconds)
    }

    /// Copies a photo's layers ahead of its composite, for a composite that arrives later (a
    /// display's writeback lands after the frame's commit, its layers are gone by then). Same
    /// thread and rules as `capture`; replaces layers staged before. False unless idle.
    @discardableResult
    public func stageLayers(colour: ImageView?, alpha: ImageView?, depth: ImageView?) -> Bool {
        guard phase.load(ordering: .acquiring) == Phase.idle.rawValue else { return false }
        if let layers {
            layers.has = (colour != nil, alpha != nil, depth != nil)
            if let colour { Self.copy(colour, into: layers.colour.view) }
            if let alpha { Self.copy(alpha, into: layers.alpha.view) }
            if let depth { Self.copy(depth, into: layers.depth.view) }
        }
        return true
    }

    /// Copies the composite, with the layers staged since the last photo (none: the JPEG alone).
    public func capture(composite view: ImageView, at nanoseconds: UInt64) -> Bool {
        precondition((view.format == .xrgb8888 || view.format == .argb8888) && view.size == layout.compositeSize,
                     "the composite must be XRGB8888 or ARGB8888 at \(layout.compositeSize.description)")
        guard phase.load(ordering: .acquiring) == Phase.idle.rawValue else { return false }
        Self.copy(view, into: composite.view)
        compositeIsLayer = false
        capturedAt = nanoseconds
        phase.store(Phase.captured.rawValue, ordering: .releasing)
        return true
    }

    /// The photo where the display blends the camera layer over the backdrop plane itself and
    /// cannot write the result back: both are copied (same thread and rules as `capture`), and the
    /// worker composes them as the display does (`LayerFlatten`) before the encode, so the JPEG is
    /// the picture a person saw. Needs a layout with `.layerOverBackdrop`.
    public func capture(layer view: ImageView, over backdropView: ImageView, at nanoseconds: UInt64) -> Bool {
        guard let under = backdrop?.buffer.view else { preconditionFailure("capture(layer:over:) needs a layout with .layerOverBackdrop") }
        let layerSize = layout.layerPlacement?.layerSize ?? layout.compositeSize
        precondition(view.format == .argb8888 && view.size == layerSize, "the layer must be ARGB8888 at \(layerSize.description)")
        precondition((backdropView.format == .xrgb8888 || backdropView.format == .argb8888)
                     && backdropView.size == layout.compositeSize, "the backdrop must be XRGB8888 at the composite's size")
        guard phase.load(ordering: .acquiring) == Phase.idle.rawValue else { return false }
        Self.copy(view, into: scaledLayer?.buffer.view ?? composite.view)
        Self.copy(backdropView, into: under)
        compositeIsLayer = true
        capturedAt = nanoseconds
        phase.store(Phase.captured.rawValue, ordering: .releasing)
        return true
    }

    /// Hands the captured frame to the worker. False when nothing was captured.
    @discardableResult
    public func startEncode() -> Bool {
        let (exchanged, _) = phase.compareExchange(expected: Phase.captured.rawValue, desired: Phase.encoding.rawValue,
                                                   ordering: .acquiringAndReleasing)
        if exchanged { wake.post() }
        return exchanged
    }

    /// The finished photo's result, once; nil while none is finished.
    public func takeResult() -> PhotoResult? {
        guard phase.load(ordering: .acquiring) == Phase.done.rawValue else { return nil }
        let finished = result
        result = nil
        // Layers belong to the photo they were staged for; the next one stages its own.
        layers?.has = (false, false, false)
        phase.store(Phase.idle.rawValue, ordering: .releasing)
        return finished
    }

    /// Lets a photo under way finish, then ends the worker. Idempotent.
    public func stop() {
        guard let thread else { return }
        stopRequested.store(true, ordering: .releasing)
        wake.post()
        thread.join()
        self.thread = nil
    }

    private func serve() {
        while true {
            wake.wait()
            if phase.load(ordering: .acquiring) == Phase.encoding.rawValue {
                result = write()
                phase.store(Phase.done.rawValue, ordering: .releasing)
                notify()
            }
            if stopRequested.load(ordering: .acquiring) { return }
        }
    }

    /// Encodes and writes every part. The sequence number is used up even when a part fails, so
    /// a name is never given twice.
    private func write() -> PhotoResult {
        let number = sequence.load(ordering: .relaxed)
        sequence.store(number + 1, ordering: .relaxed)
        let name = PhotoName.name(sequence: number, bootNanoseconds: capturedAt)
        do throws(PhotoFailure) {
            if let layers {
                if layers.has.colour {
                    ColourConversion.rgb24(from: layers.colour.view, into: layers.colourRGB.view)
                    try writePNG(layers.colourRGB.view, number, .colour)
                }
                if layers.has.alpha { try writePNG(layers.alpha.view, number, .alpha) }
                if layers.has.depth { try writePNG(layers.depth.view, number, .depth) }
            }
            if compositeIsLayer, let under = backdrop?.buffer.view, case .layerOverBackdrop(let premultiplied) = layout.planes {
                if let placement = layout.layerPlacement, let layer = scaledLayer?.buffer.view {
                    LayerFlatten.flatten(layer: layer, placedBy: placement, premultiplied: premultiplied, over: under,
                                         into: composite.view)
                } else {
                    LayerFlatten.flatten(layer: composite.view, premultiplied: premultiplied, over: under, into: composite.view)
                }
            }
            let bytes: UnsafeRawBufferPointer
            do throws(ImageError) { bytes = try compressor.compress(composite.view) } catch {
                throw PhotoFailure(reason: "JPEG encoding failed")
            }
            try writeDurably(bytes, as: name)
        } catch {
            return .failed(reason: error.reason)
        }
        return .saved(name: name)
    }

    private struct PhotoFailure: Error {
        let reason: String
    }

    private func writePNG(_ view: ImageView, _ number: UInt64, _ part: PhotoName.Part) throws(PhotoFailure) {
        let name = PhotoName.name(sequence: number, bootNanoseconds: capturedAt, part: part)
        // Written from the encoder's buffer: a camera-sized layer's PNG (up to hundreds of MiB
        // at the schema's 8192x8192) is not copied into a Swift array, which would trap when the
        // memory is not there; libspng's own allocation fails as an error instead.
        var failure: PhotoFailure? = nil
        do throws(ImageError) {
            try PNGEncoder.withEncoded(view, name: name, compressionLevel: 3) { raw in
                do throws(PhotoFailure) { try writeDurably(raw, as: name) } catch { failure = error }
            }
        } catch {
            throw PhotoFailure(reason: "PNG encoding failed")
        }
        if let failure { throw failure }
    }

    /// The screen gets the kernel's words ("No space left on device"); the loop's log line adds the name.
    private func writeDurably(_ bytes: UnsafeRawBufferPointer, as name: String) throws(PhotoFailure) {
        let file: DurableFile
        do throws(SystemError) { file = try DurableFile(name, in: folder) } catch {
            throw PhotoFailure(reason: error.errno.description)
        }
        do throws(SystemError) { try file.write(bytes) } catch {
            throw PhotoFailure(reason: error.errno.description)
        }
        if let beforeRename, !beforeRename(name) { throw PhotoFailure(reason: "abandoned before the rename") }
        do throws(SystemError) { try file.commit(in: folder) } catch {
            throw PhotoFailure(reason: error.errno.description)
        }
    }

    /// Rows of `source` into `target` (same format and size); NV12's chroma plane too.
    private static func copy(_ source: ImageView, into target: ImageView) {
        precondition(source.format == target.format || (source.format == .argb8888 && target.format == .xrgb8888),
                     "photo layer is \(source.format.name), expected \(target.format.name)")
        precondition(source.size == target.size, "photo layer is \(source.size.description), expected \(target.size.description)")
        let bytes = target.format.minimumBytesPerRow(width: target.size.width)
        for row in 0..<source.size.height {
            target.row(row).copyMemory(from: source.row(row), byteCount: bytes)
        }
        if let from = source.chromaPlane, let to = target.chromaPlane {
            for row in 0..<source.size.height / 2 {
                (to + row * target.bytesPerRow).copyMemory(from: from + row * source.bytesPerRow, byteCount: bytes)
            }
        }
    }

    /// mkdir -p: the photos folder may be on a fresh data partition. (KernelIO's
    /// DirectoryDescriptor opens existing folders only.)
    private static func makeFolders(_ path: String) throws(SystemError) {
        var partial = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            partial += "/" + component
            if bk_is_directory(partial) == 1 { continue }
            if bk_mkdir(partial, 0o755) != 0 && Errno.current != Errno(Int32(BK_EEXIST)) {
                throw SystemError("create folder \(partial)")
            }
        }
    }
}
