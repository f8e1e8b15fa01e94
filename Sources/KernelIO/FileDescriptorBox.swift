/// A FileDescriptor held by a class, so an owner that is itself a class can keep one
/// (stored ~Copyable properties of classes cannot be borrowed across some call boundaries).
public final class FileDescriptorBox {
    public let descriptor: FileDescriptor
    public init(_ descriptor: consuming FileDescriptor) { self.descriptor = descriptor }
}
