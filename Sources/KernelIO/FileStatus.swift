import CKernel

/// What a name or an open descriptor is, as fstat/fstatat (no follow) report it. Read once, then
/// decided on: the import refuses every kind but `regular` and `directory` before opening anything.
public struct FileStatus: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        case regular, directory, symlink, fifo, characterDevice, blockDevice, socket, other

        init(_ raw: Int32) {
            switch raw {
            case Int32(BK_KIND_REGULAR): self = .regular
            case Int32(BK_KIND_DIRECTORY): self = .directory
            case Int32(BK_KIND_SYMLINK): self = .symlink
            case Int32(BK_KIND_FIFO): self = .fifo
            case Int32(BK_KIND_CHARACTER_DEVICE): self = .characterDevice
            case Int32(BK_KIND_BLOCK_DEVICE): self = .blockDevice
            case Int32(BK_KIND_SOCKET): self = .socket
            default: self = .other
            }
        }

        /// For messages to people: "a symlink", "a fifo".
        public var description: String {
            switch self {
            case .regular: return "a file"
            case .directory: return "a folder"
            case .symlink: return "a symlink"
            case .fifo: return "a fifo"
            case .characterDevice: return "a character device"
            case .blockDevice: return "a block device"
            case .socket: return "a socket"
            case .other: return "not a file"
            }
        }
    }

    public let kind: Kind
    /// Length in bytes (what a read would return).
    public let size: Int64
    /// Bytes the filesystem allocated: far below `size` for a sparse file.
    public let allocated: Int64

    public init(kind: Kind, size: Int64, allocated: Int64) {
        self.kind = kind
        self.size = size
        self.allocated = allocated
    }
}

extension FileDescriptor {
    /// fstat of the open descriptor: what was actually opened, whatever the name pointed at before.
    public func status() throws(SystemError) -> FileStatus {
        var kind: Int32 = 0
        var size: Int64 = 0
        var allocated: Int64 = 0
        let result = withRawValue { bk_fstat($0, &kind, &size, &allocated) }
        guard result == 0 else { throw SystemError("fstat") }
        return FileStatus(kind: FileStatus.Kind(kind), size: size, allocated: allocated)
    }
}
