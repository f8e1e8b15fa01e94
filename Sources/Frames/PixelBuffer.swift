import KernelIO

/// One image in memory Backdrop owns: format, size, stride and the bytes. Created at start-up
/// and reused for every frame; stages write into it in place.
public struct PixelBuffer: ~Copyable {
    public let format: PixelFormat
    public let size: FrameSize
    public let bytesPerRow: Int
    private let storage: AlignedBuffer

    /// Throws when the memory is not there. Use this wherever the size comes from input (an
    /// image header, a recording): a refused allocation is then a message, not a crash.
    public init(allocating format: PixelFormat, size: FrameSize, rowAlignment: Int = 64) throws(SystemError) {
        precondition(format.accepts(size), "\(format.name) cannot hold \(size.description)")
        let minimum = format.minimumBytesPerRow(width: size.width)
        let stride = (minimum + rowAlignment - 1) / rowAlignment * rowAlignment
        self.format = format
        self.size = size
        self.bytesPerRow = stride
        self.storage = try AlignedBuffer(byteCount: format.byteCount(bytesPerRow: stride, height: size.height))
    }

    /// For tests only (SPI: product code cannot reach it): a test's small buffer that cannot be
    /// had stops the test. Product code, start-up buffers included, uses `init(allocating:)`, so
    /// ENOMEM at start-up is a message and exit status 1, never a trap.
    @_spi(Testing)
    public init(format: PixelFormat, size: FrameSize, rowAlignment: Int = 64) {
        do throws(SystemError) {
            try self.init(allocating: format, size: size, rowAlignment: rowAlignment)
        } catch {
            fatalError(error.message)
        }
    }

    public var base: UnsafeMutableRawPointer { storage.base }
    public var byteCount: Int { storage.byteCount }

    /// The first byte of row `row` of the first plane.
    public func row(_ row: Int) -> UnsafeMutableRawPointer { storage.base + row * bytesPerRow }

    /// NV12's interleaved CbCr plane; nil for single-plane formats.
    public var chromaPlane: UnsafeMutableRawPointer? {
        format == .nv12 ? storage.base + bytesPerRow * size.height : nil
    }

    /// A non-owning view for code that takes a description of an image rather than its owner.
    public var view: ImageView {
        ImageView(format: format, size: size, bytesPerRow: bytesPerRow, base: storage.base)
    }
}
