import CDRM
import CKernel

/// The properties of one KMS object (connector, CRTC, plane), resolved from name to ID once at
/// start-up so atomic requests on the frame path are plain integer writes.
public struct KMSProperties {
    public let objectID: UInt32
    private var names: [String] = []
    private var ids: [UInt32] = []
    private var values: [UInt64] = []
    private var immutable: [Bool] = []
    /// Enum entries of enum properties, as (property index, entry name, entry value).
    private var entries: [(property: Int, name: String, value: UInt64)] = []

    init(fd: Int32, objectID: UInt32, objectType: UInt32) {
        self.objectID = objectID
        guard let list = drmModeObjectGetProperties(fd, objectID, objectType) else { return }
        defer { drmModeFreeObjectProperties(list) }
        for index in 0..<Int(list.pointee.count_props) {
            guard let property = drmModeGetProperty(fd, list.pointee.props[index]) else { continue }
            defer { drmModeFreeProperty(property) }
            let name = KMSProperties.string(property.pointee.name)
            names.append(name)
            ids.append(property.pointee.prop_id)
            values.append(list.pointee.prop_values[index])
            immutable.append(property.pointee.flags & UInt32(DRM_MODE_PROP_IMMUTABLE) != 0)
            if property.pointee.flags & UInt32(DRM_MODE_PROP_ENUM) != 0 {
                for entry in 0..<Int(property.pointee.count_enums) {
                    let item = property.pointee.enums[entry]
                    entries.append((names.count - 1, KMSProperties.string(item.name), item.value))
                }
            }
        }
    }

    /// The property's ID, or nil when the object has no such property.
    public func id(_ name: String) -> UInt32? {
        guard let index = names.firstIndex(of: name) else { return nil }
        return ids[index]
    }

    /// The value when the properties were read (start-up), or nil.
    public func value(_ name: String) -> UInt64? {
        guard let index = names.firstIndex(of: name) else { return nil }
        return values[index]
    }

    public func isImmutable(_ name: String) -> Bool {
        guard let index = names.firstIndex(of: name) else { return true }
        return immutable[index]
    }

    /// The value of enum property `name`'s entry `entry` (e.g. "pixel blend mode", "Pre-multiplied").
    public func enumValue(_ name: String, _ entry: String) -> UInt64? {
        guard let index = names.firstIndex(of: name) else { return nil }
        for item in entries where item.property == index && item.name == entry { return item.value }
        return nil
    }

    /// Names of the entries of enum property `name` (what the driver allows).
    public func enumEntries(_ name: String) -> [String] {
        guard let index = names.firstIndex(of: name) else { return [] }
        var result: [String] = []
        for item in entries where item.property == index { result.append(item.name) }
        return result
    }

    static func string<T>(_ tuple: T) -> String {
        withUnsafeBytes(of: tuple) { raw in
            var bytes: [UInt8] = []
            for byte in raw { if byte == 0 { break }; bytes.append(byte) }
            return String(decoding: bytes, as: UTF8.self)
        }
    }
}
