/// Why a .cube or looks file was refused: the line (1-based; 0 for the file as a whole) and what
/// is wrong there, phrased for the person who made the file.
public struct LookFileError: Error, Equatable, Sendable, CustomStringConvertible {
    public let line: Int
    public let reason: String

    public init(line: Int, _ reason: String) {
        self.line = line
        self.reason = reason
    }

    public var description: String { line > 0 ? "line \(line): \(reason)" : reason }
}
