/// Small files (config, recording.ini, test output) read whole. Not for the frame path.
public enum WholeFile {
    /// Refuses files over `limit` bytes: a config is a few KB, anything huge is a mistake.
    public static func bytes(_ path: String, limit: Int = 1 << 20) throws(SystemError) -> [UInt8] {
        let file = try FileDescriptor.openForReading(path)
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16384)
        while true {
            var failure: SystemError? = nil
            let got = chunk.withUnsafeMutableBytes { raw -> Int in
                do throws(SystemError) { return try file.read(into: raw) } catch { failure = error; return 0 }
            }
            if let failure { throw failure }
            if got == 0 { break }
            bytes.append(contentsOf: chunk[0..<got])
            if bytes.count > limit { throw SystemError("read \(path): larger than \(limit) bytes", .invalidArgument) }
        }
        return bytes
    }

    public static func text(_ path: String, limit: Int = 1 << 20) throws(SystemError) -> String {
        String(decoding: try bytes(path, limit: limit), as: UTF8.self)
    }
}
