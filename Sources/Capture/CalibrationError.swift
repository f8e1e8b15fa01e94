/// Why a RealSense calibration reply was refused. Each case carries what was read, so the
/// message lets a user (or a bug report with `backdrop cameras --dump`) see what the camera said.
public enum CalibrationError: Error, Equatable, Sendable {
    /// Fewer bytes than the layout needs: `what` names the part, `count` what was there.
    case short(what: String, count: Int, needed: Int)
    /// The first four bytes of a reply are not the command's opcode: the camera refused it and
    /// answered with an error code instead.
    case refused(command: String, code: Int32)
    /// The size the reply states for itself is not possible in a 1024-byte exchange.
    case replyLength(command: String, stated: UInt32)
    /// A table header names another table, or a size that is not this table's.
    case header(table: String, reason: String)
    /// The CRC32 in the header does not match the bytes after it.
    case checksum(table: String, stored: UInt32, computed: UInt32)
    /// A value that cannot be a camera's: zero or negative focal length, NaN, a rotation that is
    /// not one, a translation of metres.
    case absurd(table: String, what: String, value: String)

    public var message: String {
        switch self {
        case .short(let what, let count, let needed):
            return "\(what): \(count) bytes, the layout needs \(needed)"
        case .refused(let command, let code):
            return "camera refused \(command): it answered with error code \(code) instead of the opcode"
        case .replyLength(let command, let stated):
            return "\(command) reply states \(stated) bytes, more than a 1024-byte exchange holds"
        case .header(let table, let reason):
            return "\(table) table: \(reason)"
        case .checksum(let table, let stored, let computed):
            return "\(table) table: CRC32 is \(Self.hex(computed)) but the header says \(Self.hex(stored)) (table damaged or not a calibration table)"
        case .absurd(let table, let what, let value):
            return "\(table) table: \(what) is \(value), which no camera has"
        }
    }

    static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, 8 - digits.count)) + digits
    }
}
