import Runtime
import CKernel

/// A path as the kernel will reach it: absolute, symlinks, `.` and `..` resolved, so two names of
/// one folder compare equal. A path that does not exist yet is resolved through its nearest
/// existing parent, the rest taken word by word (an output folder is usually new).
struct ResolvedPath: Equatable {
    let text: String

    init(_ path: String) {
        if let whole = Self.resolve(path) { text = whole; return }
        var parts = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        var tail: [String] = []
        var base = path.hasPrefix("/") ? "/" : "."
        while let last = parts.popLast() {
            let parent = (path.hasPrefix("/") ? "/" : "") + parts.joined(separator: "/")
            tail.insert(last, at: 0)
            if let resolved = Self.resolve(parent.isEmpty ? "." : parent) { base = resolved; break }
        }
        var words = base.split(separator: "/").map(String.init)
        for word in tail {
            if word == "." || word.isEmpty { continue }
            if word == ".." { _ = words.popLast() } else { words.append(word) }
        }
        text = "/" + words.joined(separator: "/")
    }

    /// `self` is `other` or lies somewhere below it.
    func isWithin(_ other: ResolvedPath) -> Bool {
        text == other.text || other.text == "/" || text.hasPrefix(other.text + "/")
    }

    private static func resolve(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4097)
        let status = buffer.withUnsafeMutableBufferPointer { bk_resolve_path(path, $0.baseAddress, $0.count) }
        guard status == 0 else { return nil }
        return String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
