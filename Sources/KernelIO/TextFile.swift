/// Small text files (config, recording.ini) read whole. Not for the frame path.
public enum TextFile {
    /// Refuses files over `limit` bytes: a config is a few KB, anything huge is a mistake.
    public static func read(_ path: String, limit: Int = 1 << 20) throws(SystemError) -> String {
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
        return String(decoding: bytes, as: UTF8.self)
    }
}
