import CKernel
import KernelIO
import Settings

/// Reads and validates a config file for a command. Warnings are logged; problems fail the
/// command with every one of them listed, and nothing of the file is applied. A file that is no
/// config at all (too big, binary) is refused in one line, not as hundreds of syntax errors.
public enum ConfigFile {
    /// Far above any real config (the documented one, every key commented, is about 20 KB).
    public static let byteLimit = 1 << 20

    public static func load(_ path: String) throws(CommandFailure) -> Settings {
        switch read(path) {
        case .success(let result): return result.settings
        case .failure(let problems): throw problems
        }
    }

    /// For reloads: the caller keeps its current settings when this fails.
    public static func parse(_ path: String) -> Result<Settings, CommandFailure> {
        read(path).map { $0.settings }
    }

    /// The settings and the warnings (already logged), or why the file is refused.
    /// `limit` is the byte limit the reader applies (a stick's is smaller than the box's).
    public static func read(_ path: String, limit: Int = byteLimit, limitOwner: String = "a config")
        -> Result<(settings: Settings, warnings: [String]), CommandFailure> {
        let size = bk_file_size(path)
        if size > Int64(limit) {
            return .failure(.invalidInput("\(path) is \(size) bytes; \(limitOwner) is a small text file of at most "
                                          + "\(limit) bytes (config/backdrop.conf, every key documented, is far smaller)"))
        }
        let bytes: [UInt8]
        do throws(SystemError) {
            bytes = try WholeFile.bytes(path, limit: limit)
        } catch {
            if size == -2 { return .failure(.invalidInput("\(path) is not a regular file; give the path of a config file")) }
            return .failure(.invalidInput("cannot read config \(path): \(error.errno.description); check the path"))
        }
        if let problem = textProblem(bytes) {
            return .failure(.invalidInput("\(path) \(problem); a config is INI text like config/backdrop.conf"))
        }
        let result = Settings.parse(String(decoding: bytes, as: UTF8.self), fileName: path)
        for warning in result.warnings { Log.warning(warning) }
        guard let settings = result.settings else {
            var message = "\(path) is not valid (\(result.problems.count) problem"
                + (result.problems.count == 1 ? "" : "s") + "); nothing in it was applied:"
            for problem in result.problems { message += "\n  " + problem }
            return .failure(.invalidInput(message))
        }
        return .success((settings, result.warnings))
    }

    /// Why `bytes` cannot be a config's text (a picture, a binary), or nil.
    public static func textProblem(_ bytes: [UInt8]) -> String? {
        if let zero = bytes.firstIndex(of: 0) { return "is not a text file (a NUL byte at offset \(zero))" }
        // Invalid UTF-8 decodes to replacement characters, so the round trip differs.
        guard String(decoding: bytes, as: UTF8.self).utf8.elementsEqual(bytes) else {
            return "is not UTF-8 text (a binary file, or saved in another encoding)"
        }
        return nil
    }
}
