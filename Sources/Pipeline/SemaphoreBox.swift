import KernelIO

/// A Semaphore in a class so threads can share it by reference (a ~Copyable struct cannot be
/// captured by the thread closures).
public final class SemaphoreBox {
    public let semaphore: Semaphore
    public init() throws(SystemError) { semaphore = try Semaphore() }
}
