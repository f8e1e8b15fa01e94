import CGpioShim
import Controls
import KernelIO

/// The box's buttons: owns the GPIO line requests (through CGpioShim, the only libgpiod user) and
/// turns their kernel edge events into ButtonEdges.
///
/// Threading: one thread (the I/O thread) owns the panel. `withDescriptor` lends one fd for its
/// epoll set; when it is readable, call `readEdges` (never blocks). Feed the edges to a
/// ButtonClassifier built with `softwareDebounceMS`, which is 0 where the kernel already debounces.
public final class ButtonPanel {
    public let roles: [ButtonRole]
    public let kernelDebounces: Bool
    /// What the ButtonClassifier must still debounce, milliseconds.
    public let softwareDebounceMS: Int
    /// One line a person can read: which line each role got, and who debounces.
    public let summary: String
    private let lines: OpaquePointer
    private let edges: UnsafeMutablePointer<bk_gpio_edge>
    private static let edgeCapacity = 64

    /// Requests the lines of `wiring` as inputs with both edges. Roles without a line are skipped.
    /// Throws `.lineNotFound` for a name no chip has, `.system` with EBUSY when a line is taken.
    public init(wiring: ButtonWiring, debounceMS: Int, consumer: String = "backdrop") throws(ButtonError) {
        guard let lines = bk_gpio_open(consumer, wiring.activeLow ? 1 : 0, wiring.bias.shimValue,
                                       UInt32(max(debounceMS, 0)) * 1000) else {
            throw .system(SystemError("gpio open"))
        }
        var roles: [ButtonRole] = []
        var placed: [String] = []
        for role in ButtonRole.allCases {
            guard let address = wiring.line(role) else { continue }
            let found: (path: String, offset: UInt32)
            do throws(ButtonError) {
                found = try Self.locate(address)
                guard bk_gpio_add_line(lines, found.path, found.offset) >= 0 else {
                    throw .system(SystemError("request GPIO line \(address.description) for \(role.name)"))
                }
            } catch {
                bk_gpio_close(lines)
                throw error
            }
            roles.append(role)
            placed.append("\(role.name)=\(address.description) (\(found.path):\(found.offset))")
        }
        let kernel = bk_gpio_kernel_debounce(lines) == 1
        self.lines = lines
        self.roles = roles
        kernelDebounces = kernel
        softwareDebounceMS = kernel ? 0 : max(debounceMS, 0)
        var text = "buttons: "
        for (index, item) in placed.enumerated() { text += (index == 0 ? "" : ", ") + item }
        if placed.isEmpty { text += "none" }
        text += wiring.activeLow ? ", active low" : ", active high"
        text += kernel ? ", kernel debounce \(debounceMS) ms" : ", software debounce \(debounceMS) ms"
        text += " (libgpiod \(Self.libraryVersion))"
        summary = text
        edges = .allocate(capacity: Self.edgeCapacity)
    }

    /// libgpiod's version as the shim was built against it ("1.6.3", "2.2.1").
    public static var libraryVersion: String { String(cString: bk_gpio_library_version()) }

    deinit {
        bk_gpio_close(lines)
        edges.deallocate()
    }

    /// Lends the descriptor that is readable while edges are queued; it stays owned by the panel.
    public func withDescriptor<R>(_ body: (Int32) -> R) -> R { body(bk_gpio_fd(lines)) }

    /// Hands every queued edge to `emit`, in kernel order per line; returns without waiting.
    public func readEdges(_ emit: (ButtonEdge) -> Void) throws(ButtonError) {
        while true {
            let count = bk_gpio_read_edges(lines, edges, UInt32(Self.edgeCapacity))
            guard count >= 0 else { throw .system(SystemError("read GPIO edge events")) }
            for index in 0..<Int(count) {
                let edge = edges[index]
                emit(ButtonEdge(role: roles[Int(edge.index)], pressed: edge.active != 0, nanoseconds: edge.timestamp_ns))
            }
            if Int(count) < Self.edgeCapacity { return }
        }
    }

    /// The present logical level of a role's line (true = pressed).
    public func isPressed(_ role: ButtonRole) throws(ButtonError) -> Bool {
        guard let index = roles.firstIndex(of: role) else { throw .lineNotFound(role.name) }
        let value = bk_gpio_get_value(lines, UInt32(index))
        guard value >= 0 else { throw .system(SystemError("read GPIO line of \(role.name)")) }
        return value == 1
    }

    private static func locate(_ address: ButtonLineAddress) throws(ButtonError) -> (path: String, offset: UInt32) {
        var path = [CChar](repeating: 0, count: 256)
        switch address {
        case .named(let name):
            var offset: UInt32 = 0
            guard bk_gpio_find_line(name, &path, path.count, &offset) == 0 else {
                if Errno.current == .noSuchFile { throw .lineNotFound(name) }
                throw .system(SystemError("find GPIO line \(name)"))
            }
            return (Self.string(path), offset)
        case .chip(let label, let offset):
            guard bk_gpio_find_chip(label, &path, path.count) == 0 else {
                if Errno.current == .noSuchFile { throw .lineNotFound(label) }
                throw .system(SystemError("find GPIO chip \(label)"))
            }
            return (Self.string(path), UInt32(offset))
        }
    }

    private static func string(_ bytes: [CChar]) -> String {
        bytes.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }
}
