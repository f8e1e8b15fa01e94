import CSpng
import Foundation

/// Test-only: a 16-bit greyscale PNG (a recording's depth frame) decoded with libspng into
/// host-endian samples. Kept local so these tests do not depend on ImageCodec.
struct GreyPNG {
    let width: Int
    let height: Int
    let samples: [UInt16]

    init?(path: String) {
        guard let data = FileManager.default.contents(atPath: path), let context = spng_ctx_new(0) else { return nil }
        defer { spng_ctx_free(context) }
        var header = spng_ihdr()
        var decoded: [UInt16] = []
        let ok: Bool = data.withUnsafeBytes { bytes in
            guard spng_set_png_buffer(context, bytes.baseAddress, bytes.count) == 0,
                  spng_get_ihdr(context, &header) == 0,
                  header.bit_depth == 16, header.color_type == UInt8(SPNG_COLOR_TYPE_GRAYSCALE.rawValue) else {
                return false
            }
            var length = 0
            guard spng_decoded_image_size(context, Int32(SPNG_FMT_PNG.rawValue), &length) == 0 else { return false }
            decoded = [UInt16](repeating: 0, count: length / 2)
            return decoded.withUnsafeMutableBytes {
                spng_decode_image(context, $0.baseAddress, length, Int32(SPNG_FMT_PNG.rawValue), 0) == 0
            }
        }
        guard ok else { return nil }
        width = Int(header.width)
        height = Int(header.height)
        samples = decoded
    }
}
