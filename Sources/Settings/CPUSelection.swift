/// Which CPUs a group of threads may run on.
public enum CPUSelection: Equatable, Sendable {
    /// Any CPU the scheduler likes (no pinning).
    case all
    /// Exactly these CPU numbers, in the order the config listed them, without duplicates.
    case list([Int])

    public var description: String {
        switch self {
        case .all: return "all"
        case .list(let cpus):
            var text = ""
            for cpu in cpus { text += text.isEmpty ? "\(cpu)" : ",\(cpu)" }
            return text
        }
    }
}
