import CKernel

/// The entry names of one folder (without . and ..), unsorted. One place for readdir, which
/// the config, recordings, backdrops, cameras and displays all need at start-up (never per frame).
public enum DirectoryListing {
    /// - capacityBytes: room for the NUL-separated names; a folder with more is cut short.
    public static func names(in directory: String, capacityBytes: Int = 1 << 20) throws(SystemError) -> [String] {
        // Left uninitialised: only the `used` bytes the listing wrote are read (see
        // DirectoryDescriptor.entries).
        var used = 0
        var count: Int32 = 0
        let storage = [CChar](unsafeUninitializedCapacity: capacityBytes) { bytes, initialized in
            count = bk_list_directory(directory, bytes.baseAddress, capacityBytes, &used)
            initialized = count < 0 ? 0 : used
        }
        if count < 0 { throw SystemError("list \(directory)") }
        var names: [String] = []
        var start = 0
        storage.withUnsafeBufferPointer { bytes in
            for index in 0..<used where bytes[index] == 0 {
                names.append(String(cString: bytes.baseAddress! + start))
                start = index + 1
            }
        }
        return names
    }
}
