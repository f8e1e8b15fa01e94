import CKernel
import Frames
import ImageCodec
import KernelIO

/// The ring of ready backdrops, all decoded and scaled to the output size at load time, so
/// switching is a pointer change and the frame path never decodes.
///
/// Loading never fails as a whole: files that cannot be used are skipped and reported as warning
/// lines (file name and reason) for the caller to log; the library itself does not log. When no
/// file is usable (missing or empty folder, every file bad) the library holds the built-in gradient
/// (`usesBuiltInDefault`) plus a warning saying so, because the box must always show something.
///
/// Not thread-safe: move through the ring from one thread (the I/O thread); a view handed out
/// stays valid as long as the library lives, whatever is selected later.
public final class BackgroundLibrary {
    /// Upper bound on images kept (each 1920x1080 backdrop holds 8 MiB).
    public static let maximumImages = 64

    public let outputSize: FrameSize
    public let fit: FitMode
    public let usesBuiltInDefault: Bool
    public private(set) var currentIndex = 0
    private let images: [BackgroundImage]

    init(images: [BackgroundImage], outputSize: FrameSize, fit: FitMode, usesBuiltInDefault: Bool) {
        precondition(!images.isEmpty)
        self.images = images
        self.outputSize = outputSize
        self.fit = fit
        self.usesBuiltInDefault = usesBuiltInDefault
    }

    public var count: Int { images.count }
    public var current: ImageView { images[currentIndex].view }
    public var currentName: String { images[currentIndex].name }
    public func name(at index: Int) -> String { images[index].name }
    public func view(at index: Int) -> ImageView { images[index].view }

    /// Advances, wrapping from the last to the first.
    public func next() { currentIndex = (currentIndex + 1) % images.count }

    /// Steps back, wrapping from the first to the last.
    public func previous() { currentIndex = (currentIndex + images.count - 1) % images.count }

    /// Selects `index`; returns false (and changes nothing) when it is out of range.
    @discardableResult
    public func select(_ index: Int) -> Bool {
        guard images.indices.contains(index) else { return false }
        currentIndex = index
        return true
    }

    /// Loads every regular, non-hidden file in `directory` in byte order of the names. Returns the
    /// library and one warning line per file skipped (and one if the default had to be used).
    public static func load(directory: String, outputSize: FrameSize, fit: FitMode) -> (BackgroundLibrary, [String]) {
        var warnings: [String] = []
        var images: [BackgroundImage] = []
        switch listFiles(directory) {
        case .failure(let error):
            warnings.append("backgrounds: cannot read folder \(directory): \(error.errno.description)")
        case .success(let names):
            let decoder = ImageDecoder()
            for name in names {
                let path = directory + "/" + name
                if bk_is_directory(path) == 1 { continue }
                if images.count == maximumImages {
                    warnings.append("backgrounds: \(path): skipped, only the first \(maximumImages) images are kept")
                    continue
                }
                do throws(ImageError) {
                    images.append(try BackgroundImage.load(path: path, name: name, outputSize: outputSize, fit: fit,
                                                           decoder: decoder))
                } catch {
                    warnings.append("backgrounds: skipped " + error.message)
                }
            }
        }
        if images.isEmpty {
            warnings.append("backgrounds: no usable image in \(directory); showing the built-in gradient")
            return (BackgroundLibrary(images: [BackgroundImage.builtInGradient(outputSize: outputSize)],
                                      outputSize: outputSize, fit: fit, usesBuiltInDefault: true), warnings)
        }
        return (BackgroundLibrary(images: images, outputSize: outputSize, fit: fit, usesBuiltInDefault: false), warnings)
    }

    /// One image as a library of one (`backdrop render --background IMAGE`); errors are the caller's to report.
    public static func single(path: String, outputSize: FrameSize, fit: FitMode) throws(ImageError) -> BackgroundLibrary {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let image = try BackgroundImage.load(path: path, name: name, outputSize: outputSize, fit: fit, decoder: ImageDecoder())
        return BackgroundLibrary(images: [image], outputSize: outputSize, fit: fit, usesBuiltInDefault: false)
    }

    /// Only the built-in gradient (no background folder configured).
    public static func builtIn(outputSize: FrameSize, fit: FitMode = .fill) -> BackgroundLibrary {
        BackgroundLibrary(images: [BackgroundImage.builtInGradient(outputSize: outputSize)], outputSize: outputSize,
                          fit: fit, usesBuiltInDefault: true)
    }

    /// Entry names of `directory`, hidden ones (leading '.') left out, sorted by their bytes so the
    /// order does not depend on locale or Unicode normalisation.
    static func listFiles(_ directory: String) -> Result<[String], SystemError> {
        var names: [String]
        do throws(SystemError) {
            names = try DirectoryListing.names(in: directory).filter { $0.utf8.first != UInt8(ascii: ".") }
        } catch {
            return .failure(error)
        }
        names.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        return .success(names)
    }
}
