import CKernel

/// One line per event to stderr (journald adds the time). Never called on the frame path.
public enum Log {
    public static func info(_ line: String) { emit(line) }
    public static func warning(_ line: String) { emit("warning: " + line) }
    public static func error(_ line: String) { emit("error: " + line) }

    /// Control characters from file content are escaped here, in the one place every message
    /// passes; the newlines of a message of several lines stay.
    private static func emit(_ line: String) {
        var text = TerminalText.escaped(line, keepingNewlines: true)
        text.withUTF8 { bytes in
            // Copy into a NUL-terminated buffer because String storage need not be terminated.
            withUnsafeTemporaryAllocation(of: CChar.self, capacity: bytes.count + 1) { buffer in
                for index in 0..<bytes.count { buffer[index] = CChar(bitPattern: bytes[index]) }
                buffer[bytes.count] = 0
                bk_log_line(buffer.baseAddress!)
            }
        }
    }
}
