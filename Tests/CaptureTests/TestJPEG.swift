import CTurboJPEG

/// JPEG frames made in the test with libturbojpeg, standing in for what an MJPEG camera sends.
enum TestJPEG {
    /// Vertical stripes, 16 pixels wide (one MCU, so block edges do not blur the centres).
    static let stripes: [(r: Int, g: Int, b: Int)] = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (128, 128, 128), (240, 200, 40)]

    static func stripeImage(height: Int) -> (pixels: [UInt8], width: Int) {
        let width = stripes.count * 16
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let colour = stripes[x / 16]
                let offset = (y * width + x) * 3
                pixels[offset] = UInt8(colour.r)
                pixels[offset + 1] = UInt8(colour.g)
                pixels[offset + 2] = UInt8(colour.b)
            }
        }
        return (pixels, width)
    }

    static func encode(_ pixels: [UInt8], width: Int, height: Int, subsampling: TJSAMP, grey: Bool = false) -> [UInt8] {
        let handle = tjInitCompress()!
        defer { tjDestroy(handle) }
        var output: UnsafeMutablePointer<UInt8>? = nil
        var length: UInt = 0
        let format = grey ? TJPF_GRAY : TJPF_RGB
        let status = pixels.withUnsafeBufferPointer { source in
            tjCompress2(handle, source.baseAddress, Int32(width), 0, Int32(height), Int32(format.rawValue),
                        &output, &length, Int32(subsampling.rawValue), 95, 0)
        }
        precondition(status == 0 && output != nil, "libturbojpeg could not encode the test frame")
        defer { tjFree(output) }
        return Array(UnsafeBufferPointer(start: output, count: Int(length)))
    }

    /// JFIF (full-range BT.601) YCbCr of an RGB colour, then scaled to limited range as V4L2's
    /// YUYV carries it.
    static func limitedYCbCr(_ colour: (r: Int, g: Int, b: Int)) -> (y: Double, cb: Double, cr: Double) {
        let r = Double(colour.r), g = Double(colour.g), b = Double(colour.b)
        let y = 0.299 * r + 0.587 * g + 0.114 * b
        let cb = 128 - 0.168736 * r - 0.331264 * g + 0.5 * b
        let cr = 128 + 0.5 * r - 0.418688 * g - 0.081312 * b
        return (16 + y * 219 / 255, 128 + (cb - 128) * 224 / 255, 128 + (cr - 128) * 224 / 255)
    }
}
