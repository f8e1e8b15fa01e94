import CKernel
import CTurboJPEG
@_spi(Testing) import Frames
import ImageCodec
import KernelIO

/// `backdrop-fuzz seeds DIR`: writes the small seed inputs kept in tests/fuzz/corpus/ (one folder
/// per target). Made by code so they can be remade and say what they are; a few hundred bytes each.
enum SeedCorpus {
    static func write(into root: String) -> Bool {
        var written = true
        func put(_ target: FuzzTarget, _ name: String, _ bytes: [UInt8]) {
            let folder = root + "/" + target.rawValue
            _ = bk_mkdir(folder, 0o755)
            let path = folder + "/" + name
            let failure = bytes.withUnsafeBytes { raw -> SystemError? in
                do throws(SystemError) {
                    try FileDescriptor.createTruncating(path).writeAll(raw)
                    return nil
                } catch {
                    return error
                }
            }
            if let failure {
                Log.error(failure.message)
                written = false
            }
        }
        put(.config, "full.conf", Array("""
            [matte]
            mode = auto
            near_mm = 300
            far_mm = 2500
            feather_px = 3
            [background]
            directory = /var/lib/backdrop/current/backgrounds
            fit = fill
            [camera]
            source = synthetic
            width = 640
            height = 480
            color_format = mjpeg
            registered = false
            depth_fx = 385.5
            depth_fy = 385.5
            depth_cx = 320
            depth_cy = 240
            color_fx = 615
            color_fy = 615
            color_cx = 321.5
            color_cy = 239
            [output]
            sink = file
            path = out/run.y4m
            width = 1280
            height = 720
            [pipeline]
            worker_cpus = 1, 2,3
            [buttons]
            next = GPIO5
            shutter = GPIO6

            """.utf8))
        put(.config, "broken.conf", Array("[matte\nnear_mm = 3000\nfar_mm = 2000\n[output]\nwidth = 641\n ; indented\n".utf8))
        put(.recording, "full.ini", Array("""
            [depth]
            unit_mm = 0.125
            registered = false
            [intrinsics]
            fx = 525.0
            fy = 525.0
            cx = 319.5
            cy = 239.5
            [recording]
            fps = 30

            """.utf8))
        put(.recording, "half.ini", Array("[depth]\nunit_mm = 1e3\n[intrinsics]\nfx = 1\n".utf8))

        let colour = PixelBuffer(format: .rgb24, size: FrameSize(width: 24, height: 16))
        for y in 0..<16 {
            let row = colour.row(y).assumingMemoryBound(to: UInt8.self)
            for x in 0..<(24 * 3) { row[x] = UInt8(truncatingIfNeeded: x * 11 + y * 17) }
        }
        let depth = PixelBuffer(format: .z16, size: FrameSize(width: 8, height: 6))
        for y in 0..<6 { depth.row(y).initializeMemory(as: UInt16.self, repeating: UInt16(1200 + y), count: 8) }
        do throws(ImageError) {
            put(.image, "colour.png", try PNGEncoder.encode(colour.view))
            put(.image, "depth.png", try PNGEncoder.encode(depth.view))
            let jpeg = try JPEGEncoder.encode(colour.view, quality: 80)
            put(.image, "colour.jpg", jpeg)
            put(.image, "rotated.jpg", withOrientation(6, jpeg))
        } catch {
            Log.error(error.message)
            written = false
        }
        put(.image, "cmyk.jpg", cmykJPEG())

        // Stick programs (ImportHarness): op (kind | place << 3), name length, name, content length (LE), content.
        func record(_ op: UInt8, _ name: String, _ content: [UInt8]) -> [UInt8] {
            [op, UInt8(name.utf8.count)] + Array(name.utf8) + [UInt8(content.count & 0xFF), UInt8(content.count >> 8)] + content
        }
        let png = smallPNG()
        let jpeg: [UInt8]
        do throws(ImageError) { jpeg = try JPEGEncoder.encode(colour.view, quality: 80) } catch { jpeg = [] }
        put(.import, "good.stick", record(7, "", Array("[matte]\nfar_mm = 2600\n".utf8)) + record(0, "a.png", png)
            + record(0, "b.jpg", jpeg) + record(1, "c.png", png + [1]))
        put(.import, "hostile.stick", record(4, "link.png", [0]) + record(4, "dir", [1]) + record(5, "pipe.png", [])
            + record(6, "huge.png", []) + record(3, "deep", []) + record(16, "deep.png", png) + record(0, "-x.png", png)
            + record(0, ".DS_Store", [0, 1]) + record(0, "new\nline.png", png) + record(0, "cut.png", Array(png.prefix(40)))
            + record(7, "", Array("[background]\ndirectory = /etc\n".utf8)))
        put(.import, "wrong-kinds.stick", record(8, "backgrounds", png) + record(15, "", [0xFF, 0xFE, 0]))
        put(.import, "flat.stick", record(24, "backdrop", png))
        put(.looks, "identity2.cube", Array("TITLE \"two\"\r\nLUT_3D_SIZE 2\r\n0 0 0\r\n1 0 0\r\n0 1 0\r\n1 1 0\r\n0 0 1\r\n1 0 1\r\n0 1 1\r\n1 1 1\r\n".utf8))
        put(.looks, "curve.cube", Array("# 1D\nLUT_1D_SIZE 3\nDOMAIN_MIN 0 0 0\nDOMAIN_MAX 1 1 1\n0 0 0\n0.7 0.5 0.3\n1 1 1e0\n".utf8))
        put(.looks, "looks.txt", Array("# looks\ndusk = tint 1 0.7 0.5 0.4, contrast 1.2\nfilm people = sepia 0.5, fade 0.1, posterize 6\ndream backdrop = soft, warm, blur 2, pixellate 3\n".utf8))
        for seed in CalibrationHarness.seeds() { put(.calibration, seed.name, seed.bytes) }
        return written
    }

    /// An 8x8 RGB PNG.
    static func smallPNG() -> [UInt8] {
        let image = PixelBuffer(format: .rgb24, size: FrameSize(width: 8, height: 8))
        for y in 0..<8 {
            let row = image.row(y).assumingMemoryBound(to: UInt8.self)
            for x in 0..<24 { row[x] = UInt8(truncatingIfNeeded: x * 9 + y * 31) }
        }
        do throws(ImageError) { return try PNGEncoder.encode(image.view) } catch { return [] }
    }

    /// `jpeg` with an EXIF APP1 segment (big-endian TIFF, one Orientation entry) after its SOI.
    static func withOrientation(_ value: UInt8, _ jpeg: [UInt8]) -> [UInt8] {
        let tiff: [UInt8] = [0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, value, 0, 0, 0, 0, 0, 0]
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        let length = payload.count + 2
        return [0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload + jpeg.dropFirst(2)
    }

    /// A 16x8 CMYK (YCCK, Adobe marker) JPEG as libjpeg-turbo writes them.
    static func cmykJPEG() -> [UInt8] {
        guard let handle = tjInitCompress() else { return [] }
        defer { tjDestroy(handle) }
        var pixels = [UInt8](repeating: 255, count: 16 * 8 * 4)
        for index in stride(from: 0, to: pixels.count, by: 8) { pixels[index + 1] = 0 }
        var output: UnsafeMutablePointer<UInt8>? = nil
        var length: UInt = 0
        let status = pixels.withUnsafeBufferPointer { input in
            tjCompress2(handle, input.baseAddress, 16, 64, 8, Int32(TJPF_CMYK.rawValue), &output, &length,
                        Int32(TJSAMP_444.rawValue), 90, 0)
        }
        defer { if let output { tjFree(output) } }
        guard status == 0, let output else { return [] }
        return Array(UnsafeBufferPointer(start: output, count: Int(length)))
    }
}
