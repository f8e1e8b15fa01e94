import CTurboJPEG
import Frames
import KernelIO

/// Decodes one stream's MJPEG frames with libturbojpeg into YUYV or RGB24 of a fixed size.
/// Everything Swift needs per frame is allocated here once; libjpeg-turbo's own per-image memory
/// pool is the only allocation left on this path (it is inside the library).
///
/// YUYV output is limited-range BT.601 (Y 16...235, C 16...240), what uncompressed V4L2 cameras
/// deliver, so compose treats both alike; JPEG's YCbCr is full range and is rescaled here.
public final class MJPEGDecoder {
    public let size: FrameSize
    public let output: PixelFormat
    private let handle: tjhandle
    /// Y, Cb and Cr planes at the frame's own subsampling, sized for the worst case (4:4:4).
    private let planes: AlignedBuffer
    private let planeCapacity: Int
    private let planePointers: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>
    private let planeStrides: UnsafeMutablePointer<Int32>
    /// Full-range to limited-range lookup: 256 luma entries, then 256 chroma entries.
    private let rangeTable: AlignedBuffer

    public init(size: FrameSize, output: PixelFormat) throws(CaptureError) {
        guard output == .yuyv || output == .rgb24 else {
            throw .unsupported(path: "MJPEG", reason: "cannot decode into \(output.name); use YUYV or RGB24")
        }
        guard output.accepts(size) else {
            throw .unsupported(path: "MJPEG", reason: "\(output.name) cannot hold \(size.description)")
        }
        guard let handle = tjInitDecompress() else {
            throw .unsupported(path: "MJPEG", reason: "libturbojpeg cannot create a decompressor")
        }
        self.size = size
        self.output = output
        self.handle = handle
        // MCU padding adds at most 15 columns and rows to any plane.
        planeCapacity = (size.width + 16) * (size.height + 16)
        do throws(SystemError) {
            planes = try AlignedBuffer(byteCount: output == .yuyv ? planeCapacity * 3 : 0)
            rangeTable = try AlignedBuffer(byteCount: 512)
        } catch {
            tjDestroy(handle)
            throw .system(error)
        }
        planePointers = .allocate(capacity: 3)
        planeStrides = .allocate(capacity: 3)
        let table = rangeTable.typed(UInt8.self)
        for value in 0..<256 {
            table[value] = UInt8(16 + (value * 219 + 127) / 255)
            let centred = (value - 128) * 224
            table[256 + value] = UInt8(128 + (centred >= 0 ? (centred + 127) / 255 : -((-centred + 127) / 255)))
        }
    }

    deinit {
        tjDestroy(handle)
        planePointers.deallocate()
        planeStrides.deallocate()
    }

    /// Decodes `jpeg` into `view` (which must have this decoder's size and output format).
    /// False when the frame is not a JPEG of the expected size or does not decode: the caller
    /// drops it. libjpeg's warnings (a few stray bytes, common with webcams) are not failures.
    public func decode(_ jpeg: UnsafeRawBufferPointer, into view: ImageView) -> Bool {
        guard let source = jpeg.baseAddress?.assumingMemoryBound(to: UInt8.self), jpeg.count > 0,
              view.size == size, view.format == output else { return false }
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        guard tjDecompressHeader3(handle, source, UInt(jpeg.count), &width, &height, &subsampling, &colorspace) == 0,
              Int(width) == size.width, Int(height) == size.height else { return false }
        if output == .rgb24 {
            let status = tjDecompress2(handle, source, UInt(jpeg.count), view.base.assumingMemoryBound(to: UInt8.self),
                                       width, Int32(view.bytesPerRow), height, Int32(TJPF_RGB.rawValue),
                                       Int32(TJFLAG_FASTDCT))
            return succeeded(status)
        }
        guard colorspace == Int32(TJCS_YCbCr.rawValue) || colorspace == Int32(TJCS_GRAY.rawValue),
              let shifts = Self.chromaShifts(subsampling) else { return false }
        let componentCount = subsampling == Int32(TJSAMP_GRAY.rawValue) ? 1 : 3
        let base = planes.typed(UInt8.self)
        for component in 0..<3 {
            planePointers[component] = component < componentCount ? base + component * planeCapacity : nil
            planeStrides[component] = component < componentCount ? tjPlaneWidth(Int32(component), width, subsampling) : 0
        }
        let status = tjDecompressToYUVPlanes(handle, source, UInt(jpeg.count), planePointers, width, planeStrides,
                                             height, Int32(TJFLAG_FASTDCT))
        guard succeeded(status) else { return false }
        packYUYV(into: view, hasChroma: componentCount == 3, horizontalShift: shifts.horizontal,
                 verticalShift: shifts.vertical)
        return true
    }

    private func succeeded(_ status: Int32) -> Bool {
        status == 0 || tjGetErrorCode(handle) == Int32(TJERR_WARNING.rawValue)
    }

    /// log2 of the horizontal and vertical chroma subsampling factors; nil for layouts
    /// libturbojpeg reports that Backdrop does not expect from a camera.
    static func chromaShifts(_ subsampling: Int32) -> (horizontal: Int, vertical: Int)? {
        switch subsampling {
        case Int32(TJSAMP_444.rawValue), Int32(TJSAMP_GRAY.rawValue): return (0, 0)
        case Int32(TJSAMP_422.rawValue): return (1, 0)
        case Int32(TJSAMP_420.rawValue): return (1, 1)
        case Int32(TJSAMP_440.rawValue): return (0, 1)
        case Int32(TJSAMP_411.rawValue): return (2, 0)
        default: return nil
        }
    }

    private func packYUYV(into view: ImageView, hasChroma: Bool, horizontalShift: Int, verticalShift: Int) {
        let luma = planePointers[0]!
        let lumaStride = Int(planeStrides[0])
        let lumaTable = rangeTable.typed(UInt8.self)
        let chromaTable = lumaTable + 256
        let cbPlane = planePointers[1], crPlane = planePointers[2]
        let cbStride = Int(planeStrides[1]), crStride = Int(planeStrides[2])
        let pairs = size.width / 2
        // One 32-bit store per pixel pair (Y0 Cb Y1 Cr in memory order, little-endian).
        let neutral = UInt32(128) << 8 | UInt32(128) << 24
        for row in 0..<size.height {
            let out = view.row(row).assumingMemoryBound(to: UInt32.self)
            let lumaRow = luma + row * lumaStride
            if hasChroma, let cbPlane, let crPlane {
                let chromaRow = row >> verticalShift
                let cb = cbPlane + chromaRow * cbStride
                let cr = crPlane + chromaRow * crStride
                for pair in 0..<pairs {
                    let x = pair &* 2
                    let chroma = x >> horizontalShift
                    let y0 = UInt32(lumaTable[Int(lumaRow[x])])
                    let y1 = UInt32(lumaTable[Int(lumaRow[x &+ 1])])
                    let u = UInt32(chromaTable[Int(cb[chroma])])
                    let v = UInt32(chromaTable[Int(cr[chroma])])
                    out[pair] = y0 | u << 8 | y1 << 16 | v << 24
                }
            } else {
                for pair in 0..<pairs {
                    let x = pair &* 2
                    out[pair] = UInt32(lumaTable[Int(lumaRow[x])]) | UInt32(lumaTable[Int(lumaRow[x &+ 1])]) << 16 | neutral
                }
            }
        }
    }
}
