import Frames
import ImageCodec
import KernelIO

/// The backdrops of the new generation: the stick's `backgrounds/` replaces the set when it holds
/// at least one usable image; otherwise (absent, not a folder, nothing usable) the current set is
/// kept, linked file by file. A stick backdrop identical to the current one of the same name is
/// linked rather than written, so the same stick twice writes nothing.
enum BackdropStep {
    struct Result {
        let tookFromStick: Bool
        /// The new set differs from the current one (names or content).
        let changed: Bool
        let count: Int
        /// The stick had a `backgrounds/` folder (the presence check looks for it again at the end).
        var sawFolder = false
    }

    static func run(stick: borrowing DirectoryDescriptor, current: CurrentContent,
                    staged: borrowing StagedGeneration, limits: ImportLimits,
                    afterRead: (@Sendable (String) -> Void)? = nil,
                    stopRequested: (@Sendable () -> String?)? = nil,
                    into report: inout ImportReport) throws(ImportAbort) -> Result {
        let label = StickImport.stickFolder + "/" + StickImport.stickBackgrounds
        let kept = current.backdropNames.count
        switch try ConfigStep.stickKind(StickImport.stickBackgrounds, in: stick) {
        case nil:
            report.note("no \(label)/ on the stick: kept the current \(kept) backdrop\(kept == 1 ? "" : "s")")
            return try keepCurrent(current: current, staged: staged)
        case .some(let kind) where kind != .directory:
            report.skipped("\(label): \(kind.description), not a folder; kept the current backdrops")
            return try keepCurrent(current: current, staged: staged)
        case .some:
            break
        }
        let folder = try ImportAbort.attempt("cannot open \(label)/ on the stick", on: .stick) { () throws(SystemError) in
            try stick.openDirectory(StickImport.stickBackgrounds)
        }
        let listing = try ImportAbort.attempt("cannot read \(label)/ on the stick", on: .stick) { () throws(SystemError) in
            try folder.entries()
        }
        for name in listing.undecodable {
            report.skipped("\(label)/\(StickName.printable(name)): name is not valid UTF-8")
        }
        var names = listing.names.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        if names.count > limits.entries || listing.isCutShort {
            let left = listing.total - min(names.count, limits.entries) - listing.undecodable.count
            names = Array(names.prefix(limits.entries))
            report.skipped("\(label)/: \(left) more entries not looked at (the limit is \(limits.entries) entries)", item: false)
            report.countSkipped(left)
        }

        let decoder = ImageDecoder()
        var taken: [String] = []
        var written = 0
        var totalBytes = 0
        for name in names {
            try ImportAbort.checkStop(stopRequested)
            let shown = "\(label)/\(StickName.printable(name))"
            if let problem = StickName.problem(name, limits: limits) {
                report.skipped("\(shown): \(problem)")
                continue
            }
            let status: FileStatus
            do throws(SystemError) { status = try folder.status(of: name) } catch {
                try StickFailure.skipOrAbort(.unreadable(error), label: shown, limits: limits, into: &report)
                continue
            }
            guard status.kind == .regular else {
                report.skipped("\(shown): \(status.kind.description)" + (status.kind == .symlink ? " (not followed)" : "")
                    + "; backgrounds/ holds PNG and JPEG files only")
                continue
            }
            guard StickName.looksLikeImage(name) else {
                report.skipped("\(shown): not a PNG or JPEG (.png, .jpg, .jpeg)")
                continue
            }
            guard taken.count < limits.backdrops else {
                report.skipped("\(shown): the limit of \(limits.backdrops) backdrops is reached")
                continue
            }
            guard status.size <= Int64(limits.fileBytes) else {
                report.skipped("\(shown): \(status.size) bytes, over the limit of \(ByteCount.text(limits.fileBytes)) per file (not read)")
                continue
            }
            guard totalBytes + Int(status.size) <= limits.totalBytes else {
                report.skipped("\(shown): would pass the limit of \(ByteCount.text(limits.totalBytes)) for all backdrops")
                continue
            }
            let bytes: [UInt8]
            do throws(StickFile.Refusal) { bytes = try StickFile.read(name, in: folder, limit: limits.fileBytes) } catch {
                try StickFailure.skipOrAbort(error, label: shown, limits: limits, into: &report)
                continue
            }
            afterRead?(shown)
            switch StickBackdrop.check(bytes, name: name, limits: limits, decoder: decoder) {
            case .failure(let refusal):
                report.skipped("\(shown): \(refusal.reason)")
                continue
            case .success(let size):
                do throws(SystemError) {
                    if let backgrounds = current.backgroundsPath, try current.hasBackdrop(name, equalTo: bytes) {
                        try staged.linkBackdrops([name], from: backgrounds)
                    } else {
                        try staged.writeBackdrop(name, bytes)
                        written += 1
                    }
                } catch {
                    throw ImportAbort(error, doing: "cannot write backdrop \(name) into the new generation")
                }
                totalBytes += bytes.count
                taken.append(name)
                report.taken("\(shown): \(size.description)")
            }
        }
        guard !taken.isEmpty else {
            report.note("no usable backdrop in \(label)/: kept the current \(kept)")
            var kept = try keepCurrent(current: current, staged: staged)
            kept.sawFolder = true
            return kept
        }
        let changed = written > 0 || taken.sorted() != current.backdropNames
        return Result(tookFromStick: true, changed: changed, count: taken.count, sawFolder: true)
    }

    private static func keepCurrent(current: CurrentContent, staged: borrowing StagedGeneration) throws(ImportAbort) -> Result {
        guard let backgrounds = current.backgroundsPath else { return Result(tookFromStick: false, changed: false, count: 0) }
        do throws(SystemError) { try staged.linkBackdrops(current.backdropNames, from: backgrounds) } catch {
            throw ImportAbort(error, doing: "cannot keep the current backdrops in the new generation")
        }
        return Result(tookFromStick: false, changed: false, count: current.backdropNames.count)
    }
}
