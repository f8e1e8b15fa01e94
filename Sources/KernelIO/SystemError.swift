/// What failed (the operation and its subject) and the kernel's reason.
public struct SystemError: Error, Equatable {
    public let operation: String
    public let errno: Errno

    public init(_ operation: String, _ errno: Errno = .current) {
        self.operation = operation
        self.errno = errno
    }

    public var message: String { "\(operation): \(errno.description)" }
}
