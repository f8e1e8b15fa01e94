import Frames
import ImageCodec
import Looks

/// One backdrop to decode into one of the library's slots, away from the I/O thread: made by
/// `BackgroundLibrary.nextFill`, run by `BackdropWorker`, handed back through
/// `BackgroundLibrary.filled`. Between the two the slot is the worker's alone (the library counts
/// it as holding nothing and never makes it current).
public struct BackdropFill {
    /// The image's place in the library's ring.
    public let index: Int
    let slot: BackdropSlot
    let origin: BackdropEntry.Origin
    let fit: FitMode
    /// The backdrop's look, applied here once per decode (never per frame); nil for none.
    let look: PreparedLook?

    /// Decodes the image into the slot; a line saying what went wrong when the file could not be
    /// used (changed or removed since the load), the built-in gradient then being in the slot.
    public func decode(with decoder: ImageDecoder) -> String? {
        BackdropFill.draw(origin, fit: fit, decoder: decoder, into: slot.view, look: look)
    }

    static func draw(_ origin: BackdropEntry.Origin, fit: FitMode, decoder: ImageDecoder, into view: ImageView,
                     look: PreparedLook?) -> String? {
        let problem = drawPlain(origin, fit: fit, decoder: decoder, into: view)
        if let look, look.look.target.backdrop { Self.apply(look, to: view) }
        return problem
    }

    /// The look over a whole decoded backdrop: its colour lookup row by row, then its spatial steps.
    public static func apply(_ look: PreparedLook, to view: ImageView) {
        if let colour = look.colour {
            for y in 0..<view.size.height { colour.apply(words: view.row(y), from: 0, to: view.size.width) }
        }
        if !look.spatial.isEmpty {
            SpatialPass.apply(look.spatial, to: view.base, width: view.size.width, height: view.size.height,
                              rowBytes: view.bytesPerRow)
        }
    }

    private static func drawPlain(_ origin: BackdropEntry.Origin, fit: FitMode, decoder: ImageDecoder,
                                  into view: ImageView) -> String? {
        switch origin {
        case .builtIn:
            BackgroundImage.drawGradient(into: view)
        case .generated(let backdrop):
            backdrop.draw(into: view)
        case .file(let path):
            do throws(ImageError) {
                try BackgroundImage.decode(path: path, fit: fit, decoder: decoder, into: view)
            } catch {
                BackgroundImage.drawGradient(into: view)
                return "backgrounds: cannot show " + error.message + "; showing the built-in gradient"
            }
        }
        return nil
    }
}
