/// The D4xx "hardware monitor": a command channel on the depth interface's extension unit
/// (unit 3, selector 1). One exchange is a 1024-byte command written with SET_CUR and a 1024-byte
/// reply read back with GET_CUR (`HardwareMonitorChannel` does the I/O). This half is pure: it
/// builds the command packet and takes a reply apart, checking every length.
public enum HardwareMonitor {
    /// The exchange's fixed size, both directions.
    public static let bufferSize = 1024
    /// The extension unit's GUID, C9606CCB-594C-4D25-AF47-CCC496435995, in the order the UVC
    /// descriptor stores it (the first three fields little-endian).
    public static let extensionGUID: [UInt8] = [0xCB, 0x6C, 0x60, 0xC9, 0x4C, 0x59, 0x25, 0x4D,
                                                0xAF, 0x47, 0xCC, 0xC4, 0x96, 0x43, 0x59, 0x95]
    public static let extensionUnit: UInt8 = 3
    public static let selector: UInt8 = 1

    public enum Opcode: UInt32, Sendable {
        /// Device details (firmware version).
        case gvd = 0x10
        /// A calibration table; param1 is its id.
        case getIntCal = 0x15
        /// An advanced-mode group; param1 9 is the depth table control (depth units).
        case getAdv = 0x2C

        public var name: String {
            switch self {
            case .gvd: return "GVD"
            case .getIntCal: return "GETINTCAL"
            case .getAdv: return "GET_ADV"
            }
        }
    }

    /// Table ids for GETINTCAL.
    public enum Table: UInt32, Sendable {
        /// Depth: the stereo pair's rectified intrinsics per resolution.
        case depth = 25
        /// Colour: the RGB sensor's intrinsics and its pose against the depth camera.
        case color = 32

        public var name: String { self == .depth ? "depth (25)" : "colour (32)" }
    }

    /// GET_ADV's group for depth units.
    public static let depthTableControl: UInt32 = 9

    /// A 1024-byte command: u16 length (bytes after the first four), the magic 0xCDAB, the opcode
    /// and four parameters, all little-endian, zero-padded.
    public static func command(_ opcode: Opcode, _ param1: UInt32 = 0, _ param2: UInt32 = 0,
                               _ param3: UInt32 = 0, _ param4: UInt32 = 0) -> [UInt8] {
        var packet = [UInt8](repeating: 0, count: bufferSize)
        func put(_ value: UInt32, at offset: Int, bytes: Int) {
            for index in 0..<bytes { packet[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(index))) }
        }
        let headerBytes = 4 + 4 * 5
        put(UInt32(headerBytes - 4), at: 0, bytes: 2)
        put(0xCDAB, at: 2, bytes: 2)
        put(opcode.rawValue, at: 4, bytes: 4)
        put(param1, at: 8, bytes: 4)
        put(param2, at: 12, bytes: 4)
        put(param3, at: 16, bytes: 4)
        put(param4, at: 20, bytes: 4)
        return packet
    }

    /// The payload of a reply: after the 4-byte opcode echo, as long as the reply's last four bytes
    /// say. Throws when the reply is not 1024 bytes, echoes another value (the camera's error
    /// code), or states a length that cannot fit.
    public static func payload(of reply: [UInt8], for opcode: Opcode) throws(CalibrationError) -> ArraySlice<UInt8> {
        guard reply.count == bufferSize else {
            throw .short(what: "\(opcode.name) reply", count: reply.count, needed: bufferSize)
        }
        let bytes = CalibrationBytes(reply[...])
        let echo = bytes.u32(0)
        guard echo == opcode.rawValue else {
            throw .refused(command: opcode.name, code: Int32(bitPattern: echo))
        }
        // The stated count covers the payload after the echo. Read so, a reply whose count also
        // includes the echo (some firmware) only brings four padding bytes along, which no table
        // reads: the tables carry their own sizes and are checked against them.
        let stated = bytes.u32(bufferSize - 4)
        guard Int(stated) <= bufferSize - 8 else { throw .replyLength(command: opcode.name, stated: stated) }
        return reply[4..<(4 + Int(stated))]
    }
}
