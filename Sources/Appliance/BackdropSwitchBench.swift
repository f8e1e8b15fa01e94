import Backgrounds
import Frames
import KernelIO

/// `backdrop bench --backgrounds DIR`: what a button press costs with the backdrop memory budget.
/// Steps twice round the folder's ring and reports, per switch, the time until the new backdrop
/// could be shown (a pointer change when it was prepared ahead) and the decode of the neighbour
/// that follows, with the decoded memory held.
enum BackdropSwitchBench {
    static func run(directory: String, size: FrameSize) throws(CommandFailure) -> String {
        let (library, warnings) = try FrameMemory.allocating("the backdrops at \(size.description)") { () throws(SystemError) in
            try BackgroundLibrary.load(directory: directory, outputSize: size, fit: .fill)
        }
        guard !library.usesBuiltInDefault else {
            throw .invalidInput("\(directory): no usable backdrop to switch between (\(warnings.count) problem(s))")
        }
        var visible: [UInt64] = [], preparing: [UInt64] = []
        for _ in 0..<(2 * library.count) {
            library.next()
            visible.append(library.lastSwitch.visibleNanoseconds)
            preparing.append(library.lastSwitch.preparingNanoseconds)
        }
        return "backdrop switch, \(library.count) backdrop(s) at \(size.description): shown after "
            + "\(milliseconds(visible)), next one prepared in \(milliseconds(preparing)); "
            + "decoded backdrops hold \(library.residentBytes / (1024 * 1024)) MiB"
    }

    private static func milliseconds(_ samples: [UInt64]) -> String {
        let sorted = samples.sorted()
        let median = Double(sorted[sorted.count / 2]) / 1e6, maximum = Double(sorted[sorted.count - 1]) / 1e6
        return "p50 \(BenchCommand.decimal(median)) ms (max \(BenchCommand.decimal(maximum)) ms)"
    }
}
