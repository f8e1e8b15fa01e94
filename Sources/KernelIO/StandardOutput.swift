import CKernel

/// Program output (help, reports, JSON) as opposed to log lines.
public enum StandardOutput {
    public static func write(_ text: String) {
        var copy = text
        copy.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars in
                bk_write_stdout(chars.baseAddress, chars.count)
            }
        }
    }

    public static func line(_ text: String) { write(text + "\n") }
}
