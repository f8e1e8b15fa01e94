import CKernel
import KernelIO

/// One atomic KMS request built in storage allocated once, committed with the raw ioctl, so a
/// page flip allocates nothing (libdrm's drmModeAtomicCommit copies and sorts on the heap).
/// Properties are grouped per object in the order added; adding to the last object extends it.
/// A property the driver does not have (ID nil) makes the request fail, sticky until `reset`,
/// so a missing property is reported at the commit that needed it instead of silently ignored.
final class AtomicRequest {
    private let objectCapacity = 16
    private let propertyCapacity = 64
    private let objects: UnsafeMutablePointer<UInt32>
    private let counts: UnsafeMutablePointer<UInt32>
    private let properties: UnsafeMutablePointer<UInt32>
    private let values: UnsafeMutablePointer<UInt64>
    private var objectCount = 0
    private var propertyCount = 0
    private(set) var missing: String? = nil

    init() {
        objects = .allocate(capacity: objectCapacity)
        counts = .allocate(capacity: objectCapacity)
        properties = .allocate(capacity: propertyCapacity)
        values = .allocate(capacity: propertyCapacity)
    }

    deinit {
        objects.deallocate()
        counts.deallocate()
        properties.deallocate()
        values.deallocate()
    }

    func reset() {
        objectCount = 0
        propertyCount = 0
        missing = nil
    }

    /// Adds property `name` of `object` (looked up by name: setup only, not per frame).
    func add(_ object: KMSProperties, _ name: String, _ value: UInt64) {
        guard missing == nil else { return }
        guard let id = object.id(name) else {
            missing = "object \(object.objectID) has no property \(name)"
            return
        }
        add(object: object.objectID, property: id, value: value)
    }

    /// The same with an ID resolved earlier (no lookup on the frame path).
    func add(object: UInt32, property: UInt32, value: UInt64) {
        guard missing == nil else { return }
        precondition(propertyCount < propertyCapacity, "atomic request overflow")
        if objectCount == 0 || objects[objectCount - 1] != object {
            precondition(objectCount < objectCapacity, "atomic request overflow")
            objects[objectCount] = object
            counts[objectCount] = 0
            objectCount += 1
        }
        properties[propertyCount] = property
        values[propertyCount] = value
        propertyCount += 1
        counts[objectCount - 1] += 1
    }

    /// Commits; returns nil on success or the errno (EBUSY: a flip is still pending; EINVAL: the
    /// driver refused the configuration; ENOENT for a missing property, see `missing`).
    func commit(fd: Int32, flags: UInt32, userData: UInt64 = 0) -> Errno? {
        if missing != nil { return Errno.noSuchFile }
        let result = bk_drm_atomic_commit(fd, flags, objects, counts, UInt32(objectCount), properties, values, userData)
        return result == 0 ? nil : Errno.current
    }
}
