import CFuzzDriver
import CKernel
import KernelIO

// backdrop-fuzz TARGET [libFuzzer options] [CORPUS_DIR...]  in the fuzz build (make fuzz);
// backdrop-fuzz TARGET FILE_OR_DIR...                       in any build: replays each input once
// (the seed corpora and the kept crash inputs), exit 0 when every one returns.
let arguments = ProcessArguments.all
if arguments.count == 3 && arguments[1] == "seeds" { bk_exit(SeedCorpus.write(into: arguments[2]) ? 0 : 1) }
guard arguments.count >= 2, let target = FuzzTarget(rawValue: arguments[1]) else {
    let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
    Log.error("usage: backdrop-fuzz TARGET [libFuzzer options or inputs]; targets: \(names)")
    bk_exit(2)
}
let scratch = ScratchFile(target: target, name: target == .recording ? "recording.ini" : "input")
nonisolated(unsafe) var chosen = target
nonisolated(unsafe) var chosenScratch = scratch

// libFuzzer sees the program name followed by its own arguments: the target word is taken out.
var pointers: [UnsafeMutablePointer<CChar>?] = [CommandLine.unsafeArgv[0]]
for index in 2..<Int(CommandLine.argc) { pointers.append(CommandLine.unsafeArgv[index]) }
pointers.append(nil)
var argc = Int32(pointers.count - 1)
let status = pointers.withUnsafeMutableBufferPointer { buffer -> Int32 in
    var argv = buffer.baseAddress
    return bk_fuzz_run_driver(&argc, &argv) { data, size in
        chosen.run(UnsafeRawBufferPointer(start: data, count: size), scratch: chosenScratch)
        return 0
    }
}
if status != -1 { bk_exit(status) }

// Replay: every file named, and every file inside a folder named.
var replayed = 0
for argument in arguments.dropFirst(2) {
    var paths = [argument]
    if let names = try? DirectoryListing.names(in: argument) { paths = names.sorted().map { argument + "/" + $0 } }
    for path in paths {
        guard let bytes = try? WholeFile.bytes(path, limit: 1 << 24) else { continue }
        bytes.withUnsafeBytes { target.run($0, scratch: scratch) }
        replayed += 1
    }
}
Log.info("backdrop-fuzz \(target.rawValue): replayed \(replayed) input(s), none crashed")
