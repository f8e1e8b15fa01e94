import CKernel
import Glibc
import ImageCodec
import Import
import KernelIO
import Settings

/// The USB import's tree walk: the input is a small program that builds a stick in the scratch
/// folder (files with raw names and contents, folders, symlinks to a decoy folder of the scratch
/// folder itself, fifos, sparse files past the byte bound, the config), then the stick is imported
/// into a data folder whose current generation is a known baseline. Invariants: the exit status
/// is 0, 1 or 2; on 1 and 2 `current` is the baseline, unchanged; on 0 it is a new generation
/// that is whole (a config the parser accepts, backdrops that decode within the bounds, nothing
/// staged left) with the baseline as `previous`; the decoy is never touched; the screen's notice
/// reads back as written. After a 0 the harness rolls back, so every input meets the same box.
///
/// Program: records of `op, nameLength, name..., lengthLow, lengthHigh, content...`; op & 7 is
/// the kind (0-2 file, 3 folder, 4 symlink, 5 fifo, 6 sparse file, 7 the config's content) and
/// (op >> 3) & 3 the place (backgrounds/, backdrop/, backgrounds/sub/, the stick's root).
enum ImportHarness {
    // One process, one thread: libFuzzer calls the harness serially.
    nonisolated(unsafe) static var box: Box? = nil

    /// Small bounds, so inputs of a few KB reach every one of them.
    static let limits: ImportLimits = {
        var limits = ImportLimits()
        limits.backdrops = 6
        limits.entries = 24
        limits.fileBytes = 48 << 10
        limits.totalBytes = 128 << 10
        limits.configBytes = 4 << 10
        limits.nameBytes = 40
        // Small images decode in microseconds: the harness explores the walk, not the decoders
        // (the image target does that).
        limits.pixelsPerSide = 512
        limits.pixels = 1 << 16
        return limits
    }()

    struct Box {
        let root: String
        var stick: String { root + "/stick" }
        var data: String { root + "/data" }
        var decoy: String { root + "/decoy" }
        let baseline: String
        let baselineBackdrops: [String]
        let baselineConfig: [UInt8]
        let decoyBytes: [UInt8]
    }

    static func run(_ bytes: UnsafeRawBufferPointer, scratch: ScratchFile) {
        let box = self.box ?? makeBox(scratch.directory)
        self.box = box
        remove(box.stick)
        precondition(bk_mkdir(box.stick, 0o755) == 0)
        build(bytes, in: box)

        var options = StickImport.Options(stick: box.stick)
        options.data = box.data
        options.baseConfig = nil
        options.limits = limits
        let report = StickImport.run(options)
        let status = report.outcome.exitStatus
        precondition(status == 0 || status == 1 || status == 2, "exit status \(status)")
        precondition(!report.screenText.isEmpty, "no screen text for \(report.outcome)")
        for line in report.lines { precondition(!line.rendered.unicodeScalars.contains { $0.value < 0x20 }, "a control character printed") }
        do throws(SystemError) {
            let notice = try ImportNotice.write(report.screenText, status: status, data: box.data)
            precondition(ImportNotice.read(data: box.data) == notice, "the notice does not read back")
        } catch {
            preconditionFailure("notice not written: \(error.message)")
        }

        let current = link("current", box)
        precondition(readBytes(box.decoy + "/secret.png") == box.decoyBytes, "the decoy changed")
        precondition(!entries(box.data + "/generations").contains { $0.hasPrefix(".staging-") }, "a staging folder is left")
        if status != 0 {
            precondition(current == box.baseline, "current moved on exit \(status): \(current ?? "none")")
            precondition(entries(box.data + "/current/backgrounds").sorted() == box.baselineBackdrops, "the baseline's backdrops changed")
            precondition(readBytes(box.data + "/current/backdrop.conf") == box.baselineConfig, "the baseline's config changed")
            return
        }
        precondition(current != box.baseline && current != nil, "exit 0 without a new current")
        precondition(link("previous", box) == box.baseline, "previous is not the baseline")
        checkWhole(box.data + "/current")
        do throws(SystemError) {
            let back = try DataFolder.open(box.data).rollback()
            precondition(back != nil, "no rollback to the baseline")
        } catch {
            preconditionFailure("rollback: \(error.message)")
        }
        precondition(link("current", box) == box.baseline)
    }

    /// A new generation is whole: its config is accepted by the parser, each backdrop decodes
    /// within the import's bounds.
    private static func checkWhole(_ generation: String) {
        let config = readBytes(generation + "/" + GenerationLayout.config)
        precondition(!config.isEmpty, "the new generation has no config")
        let parse = Settings.parse(String(decoding: config, as: UTF8.self), fileName: "fuzz")
        precondition(parse.problems.isEmpty, "the new generation's config is refused: \(parse.problems)")
        let decoder = ImageDecoder()
        let names = entries(generation + "/" + GenerationLayout.backgrounds)
        precondition(names.count <= limits.backdrops, "more backdrops than the bound")
        for name in names {
            let path = generation + "/" + GenerationLayout.backgrounds + "/" + name
            do throws(ImageError) {
                let header = try decoder.header(path: path)
                precondition(header.size.width <= limits.pixelsPerSide && header.size.height <= limits.pixelsPerSide
                             && header.size.pixelCount <= limits.pixels, "a backdrop over the pixel bounds")
                _ = try decoder.decode(path: path)
            } catch {
                preconditionFailure("a backdrop of the new generation does not decode: \(error.message)")
            }
        }
    }

    private static func build(_ bytes: UnsafeRawBufferPointer, in box: Box) {
        // Folders come when a record needs them, so a record can make `backdrop` or `backgrounds`
        // a file first.
        var at = 0
        func next() -> Int? {
            guard at < bytes.count else { return nil }
            defer { at += 1 }
            return Int(bytes[at])
        }
        var records = 0
        while records < 64, let op = next(), let nameLength = next() {
            records += 1
            var name: [UInt8] = []
            for _ in 0..<(nameLength % 48) {
                guard let byte = next() else { break }
                name.append(byte == 0 || byte == UInt8(ascii: "/") ? UInt8(ascii: "_") : UInt8(byte))
            }
            if name.isEmpty || name == [0x2E] || name == [0x2E, 0x2E] { name = Array("x.png".utf8) }
            let length = ((next() ?? 0) | (next() ?? 0) << 8) % 16384
            let content = Array(bytes[at..<min(bytes.count, at + length)])
            at = min(bytes.count, at + length)
            let places = ["/backdrop/backgrounds/", "/backdrop/", "/backdrop/backgrounds/sub/", "/"]
            let place_ = (op >> 3) & 3
            let place = box.stick + places[place_]
            if place_ != 3 || op & 7 == 7 { _ = bk_mkdir(box.stick + "/backdrop", 0o755) }
            if place_ == 0 || place_ == 2 { _ = bk_mkdir(box.stick + "/backdrop/backgrounds", 0o755) }
            if place_ == 2 { _ = bk_mkdir(box.stick + "/backdrop/backgrounds/sub", 0o755) }
            let path: [CChar] = Array(place.utf8CString.dropLast()) + name.map { CChar(bitPattern: $0) } + [0]
            switch op & 7 {
            case 0, 1, 2: write(path, content)
            case 3: _ = path.withUnsafeBufferPointer { mkdir($0.baseAddress!, 0o755) }
            case 4:
                let target = content.first.map { $0 & 1 == 0 } ?? true ? box.decoy + "/secret.png" : box.decoy
                _ = path.withUnsafeBufferPointer { symlink(target, $0.baseAddress!) }
            case 5: _ = path.withUnsafeBufferPointer { mkfifo($0.baseAddress!, 0o644) }
            case 6:
                // O_NOFOLLOW: an earlier record may have made this name a symlink to the decoy, and the
                // harness itself must not be what changes the decoy.
                let fd = path.withUnsafeBufferPointer { open($0.baseAddress!, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o644) }
                if fd >= 0 {
                    _ = ftruncate(fd, off_t(limits.fileBytes + 1 + length))
                    close(fd)
                }
            default:
                write(Array((box.stick + "/backdrop/backdrop.conf").utf8CString), content)
            }
        }
    }

    private static func makeBox(_ root: String) -> Box {
        let stick = root + "/stick", data = root + "/data", decoy = root + "/decoy"
        remove(stick)
        remove(data)
        remove(decoy)
        precondition(bk_mkdir(decoy, 0o755) == 0 && bk_mkdir(stick, 0o755) == 0)
        let secret = SeedCorpus.smallPNG()
        write(Array((decoy + "/secret.png").utf8CString), secret)
        precondition(bk_mkdir(stick + "/backdrop", 0o755) == 0 && bk_mkdir(stick + "/backdrop/backgrounds", 0o755) == 0)
        write(Array((stick + "/backdrop/backgrounds/base.png").utf8CString), SeedCorpus.smallPNG())
        write(Array((stick + "/backdrop/backdrop.conf").utf8CString), Array("[matte]\nfar_mm = 2500\n".utf8))
        var options = StickImport.Options(stick: stick)
        options.data = data
        options.baseConfig = nil
        options.limits = limits
        let report = StickImport.run(options)
        guard case .newGeneration = report.outcome else { preconditionFailure("the baseline import failed: \(report.outcome)") }
        let partial = Box(root: root, baseline: "", baselineBackdrops: [], baselineConfig: [], decoyBytes: secret)
        return Box(root: root, baseline: link("current", partial) ?? "",
                   baselineBackdrops: entries(data + "/current/backgrounds").sorted(),
                   baselineConfig: readBytes(data + "/current/backdrop.conf"), decoyBytes: secret)
    }

    private static func write(_ path: [CChar], _ bytes: [UInt8]) {
        let fd = path.withUnsafeBufferPointer { open($0.baseAddress!, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o644) }
        guard fd >= 0 else { return }
        bytes.withUnsafeBytes { _ = Glibc.write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }

    private static func link(_ name: String, _ box: Box) -> String? {
        do throws(SystemError) { return try DirectoryDescriptor.open(box.data).symlinkTarget(name) } catch { return nil }
    }

    private static func entries(_ path: String) -> [String] {
        do throws(SystemError) { return try DirectoryDescriptor.open(path).entries().names } catch { return [] }
    }

    private static func readBytes(_ path: String) -> [UInt8] {
        do throws(SystemError) { return try WholeFile.bytes(path, limit: 1 << 20) } catch { return [] }
    }

    /// Removes a folder the harness made in its scratch folder, never following a symlink. By raw
    /// names: an input makes names that are not UTF-8, which a String cannot name.
    private static func remove(_ path: String) {
        let split = DurablePath.split(path)
        let parent = open(split.folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard parent >= 0 else { return }
        removeRaw(parent, Array(split.name.utf8CString))
        close(parent)
    }

    private static func removeRaw(_ parent: Int32, _ name: [CChar]) {
        var info = stat()
        guard fstatat(parent, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            unlinkat(parent, name, 0)
            return
        }
        let fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return }
        guard let folder = fdopendir(fd) else {
            close(fd)
            return
        }
        var children: [[CChar]] = []
        while let entry = readdir(folder) {
            let child = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.bindMemory(to: CChar.self).prefix { $0 != 0 }) }
            if child == [46] || child == [46, 46] { continue }
            children.append(child + [0])
        }
        for child in children { removeRaw(dirfd(folder), child) }
        closedir(folder)
        unlinkat(parent, name, AT_REMOVEDIR)
    }
}
