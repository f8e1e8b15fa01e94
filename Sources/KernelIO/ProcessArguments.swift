import CKernel

/// The command line, read through the shim because Embedded Swift has no `CommandLine`.
public enum ProcessArguments {
    public static var all: [String] {
        var arguments: [String] = []
        for index in 0..<Int(bk_argc()) {
            if let text = bk_argv(Int32(index)) { arguments.append(String(cString: text)) }
        }
        return arguments
    }

    public static func environment(_ name: String) -> String? {
        guard let value = bk_getenv(name) else { return nil }
        return String(cString: value)
    }
}
