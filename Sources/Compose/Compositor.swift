import Frames
import Looks

/// The frame-path kernel: converts the camera image to RGB, blends it over the prescaled backdrop
/// with the matte, and writes the scanout buffer, all in one pass over the output.
///
/// Formats: camera YUYV, NV12 or RGB24 at `cameraSize`; alpha ALPHA8 at `cameraSize`; background
/// and output XRGB8888 (little-endian 0xXXRRGGBB words, bytes B G R X) at `outputSize`.
/// Per channel out = round((fg * a + bg * (255 - a)) / 255) (see `AlphaBlend`), with fg from
/// BT.601 limited range (see `YCbCr`). Output pixels outside the camera's rectangle (fit mode
/// letterbox) show the background unchanged: the person is confined to the camera's view, the
/// backdrop still fills the screen.
///
/// All tables are built in `init`; the per-frame calls never allocate and never log. Calls with
/// disjoint `rows` may run on different threads at once (the compositor holds no per-call state).
public final class Compositor {
    public let cameraFormat: PixelFormat
    public let cameraSize: FrameSize
    public let outputSize: FrameSize
    public let fit: FitMode
    public let mapping: CameraMapping

    // Raw copies of the mapping so the per-pixel loops carry no bounds checks or retains.
    private let columns: UnsafeMutablePointer<Int32>
    private let rowTable: UnsafeMutablePointer<Int32>
    private let activeStart: Int
    private let activeEnd: Int
    private let identityColumns: Bool
    /// The camera columns the mapping reads (start rounded down to even: YUYV and NV12 share
    /// chroma by pairs), converted once per camera row on the scaled path.
    private let usedColumns: Range<Int>
    /// For each camera column c (0...camera width): the first active output column whose camera
    /// column is c or later, activeEnd when none. The mapping never decreases, so the output
    /// columns that read camera columns a..<b are firstOutputColumn[a]..<firstOutputColumn[b].
    private let firstOutputColumn: UnsafeMutablePointer<Int32>
    /// The mapping's three-column period where it has one (see `PeriodicStretch`): the scaled
    /// frame path then blends from the camera row through lane shuffles, with no stretch.
    let periodicStretch: PeriodicStretch?
    /// Whether the scaled frame path stretches by overlapping four-word stores (see
    /// `SplatStretch`) where it has no period.
    let splatStretch: Bool

    public init(cameraFormat: PixelFormat, cameraSize: FrameSize, outputSize: FrameSize, fit: FitMode) {
        precondition(cameraFormat == .yuyv || cameraFormat == .nv12 || cameraFormat == .rgb24,
                     "the compositor takes YUYV, NV12 or RGB24 camera frames, not \(cameraFormat.name)")
        precondition(cameraFormat.accepts(cameraSize) && outputSize.width > 0 && outputSize.height > 0)
        self.cameraFormat = cameraFormat
        self.cameraSize = cameraSize
        self.outputSize = outputSize
        self.fit = fit
        mapping = CameraMapping(camera: cameraSize, output: outputSize, fit: fit)
        columns = .allocate(capacity: outputSize.width)
        rowTable = .allocate(capacity: outputSize.height)
        for x in 0..<outputSize.width { columns[x] = mapping.sourceColumn[x] }
        for y in 0..<outputSize.height { rowTable[y] = mapping.sourceRow[y] }
        activeStart = mapping.activeColumns.lowerBound
        activeEnd = mapping.activeColumns.upperBound
        identityColumns = mapping.columnsAreIdentity
        var lowest = cameraSize.width, highest = -1
        for x in mapping.activeColumns {
            lowest = min(lowest, Int(mapping.sourceColumn[x]))
            highest = max(highest, Int(mapping.sourceColumn[x]))
        }
        usedColumns = highest < 0 ? 0..<0 : (lowest & ~1)..<(highest + 1)
        firstOutputColumn = .allocate(capacity: cameraSize.width + 1)
        var x = mapping.activeColumns.lowerBound
        for c in 0...cameraSize.width {
            while x < mapping.activeColumns.upperBound && Int(mapping.sourceColumn[x]) < c { x += 1 }
            firstOutputColumn[c] = Int32(x)
        }
        periodicStretch = PeriodicStretch.find(sourceColumn: mapping.sourceColumn, active: mapping.activeColumns)
        splatStretch = SplatStretch.suits(firstOutputColumn: firstOutputColumn, cameraColumns: usedColumns,
                                          outputColumns: mapping.activeColumns.count)
    }

    /// Row buffers for one band of the scaled path (see `ComposeScratch`). Start-up only.
    public func makeScratch() -> ComposeScratch {
        ComposeScratch(cameraWidth: cameraSize.width, outputWidth: outputSize.width)
    }

    deinit {
        columns.deallocate()
        rowTable.deallocate()
        firstOutputColumn.deallocate()
    }

    /// Where the fitted camera does not reach (letterbox rows and columns) the output is the
    /// backdrop as it is. Returns the camera row that feeds output row `y`, or nil when none does
    /// and the whole row was copied; then the left bar is written, and the caller writes the right
    /// one (`backdropRightOfCamera`) after the camera's columns, so that the row is written in
    /// address order.
    @inline(__always)
    private func backdropLeftOfCamera(row y: Int, back: UnsafeRawPointer, into out: UnsafeMutableRawPointer,
                                      width: Int) -> Int? {
        let sourceY = Int(rowTable[y])
        guard sourceY >= 0 else {
            out.copyMemory(from: back, byteCount: width * 4)
            return nil
        }
        // Through the backdrop kernel rather than memcpy: its read-ahead keeps the backdrop's
        // stream prefetched across the bars into the camera's columns and on into the next row.
        Self.opaqueBackdrop(back, into: out, from: 0, to: activeStart, setting: 0)
        return sourceY
    }

    @inline(__always)
    private func backdropRightOfCamera(back: UnsafeRawPointer, into out: UnsafeMutableRawPointer, width: Int) {
        Self.opaqueBackdrop(back, into: out, from: activeEnd, to: width, setting: 0)
    }

    /// Blends `rows` of the output. Bands of rows may be given to different threads.
    public func compose(camera: ImageView, alpha: ImageView, background: ImageView, into output: ImageView,
                        rows: Range<Int>) {
        compose(camera: camera, patched: .none, alpha: alpha, background: background, into: output, rows: rows)
    }

    private func compose(camera: ImageView, patched: PatchedRows, alpha: ImageView, background: ImageView,
                         into output: ImageView, rows: Range<Int>) {
        checkInputs(camera: camera, alpha: alpha, output: output, rows: rows)
        precondition(background.format == .xrgb8888 && background.size == outputSize, "background must be XRGB8888 at the output size")
        let width = outputSize.width
        for y in rows {
            let out = output.row(y)
            let back = UnsafeRawPointer(background.row(y))
            guard let sourceY = backdropLeftOfCamera(row: y, back: back, into: out, width: width) else { continue }
            blendRow(camera: camera, patched: patched, sourceY: sourceY, alpha: UnsafeRawPointer(alpha.row(sourceY)),
                     background: back, output: out, target: .frame, from: activeStart, to: activeEnd, identity: identityColumns)
            backdropRightOfCamera(back: back, into: out, width: width)
        }
    }

    /// The same frame as `compose(camera:alpha:background:into:rows:)`, bit for bit, with the
    /// band's row buffers: when the camera is scaled, each camera row the band needs is converted
    /// to colour and alpha once (contiguous vector loads, at camera width) and stretched to the
    /// output width once, and each output row it covers is then one contiguous vector blend over
    /// the backdrop. The per-pixel gather path converts the same camera pixel once per output pixel
    /// it lands on (nine times for 640x480 under 1080p) through scattered byte loads. At equal
    /// widths there is nothing to stretch and this is the direct path. Only the spans of the row the
    /// matte covers are stretched and blended; the rest, most of a frame, is the backdrop made
    /// opaque, which is what the blend gives under alpha 0. `patch` (the matte's rim corrections
    /// for this camera frame), when given, is laid into the band's copy of each camera row it
    /// writes as the row is read; the camera frame itself is only read.
    /// `look`, when given, maps the people's colours: it is applied to the band's converted camera
    /// row over the columns the matte covers, at camera width, before the stretch, so it costs per
    /// covered camera pixel and adds no pass over the output. At equal widths a look takes this
    /// row path too (the direct path has no row to apply it to), blending from the camera row.
    public func compose(camera: ImageView, alpha: ImageView, background: ImageView, into output: ImageView,
                        rows: Range<Int>, scratch: ComposeScratch, patch: PixelPatch? = nil, look: ColourLookup? = nil) {
        let patched = PatchedRows(patch, scratch: scratch, camera: camera)
        guard !identityColumns || look != nil else {
            return compose(camera: camera, patched: patched, alpha: alpha, background: background, into: output, rows: rows)
        }
        checkInputs(camera: camera, alpha: alpha, output: output, rows: rows)
        precondition(background.format == .xrgb8888 && background.size == outputSize, "background must be XRGB8888 at the output size")
        let width = outputSize.width
        var stretchedRow = -1
        for y in rows {
            let out = output.row(y)
            let back = UnsafeRawPointer(background.row(y))
            guard let sourceY = backdropLeftOfCamera(row: y, back: back, into: out, width: width) else { continue }
            if sourceY != stretchedRow {
                convertRow(camera: camera, patched: patched, sourceY: sourceY, alpha: alpha, into: scratch.cameraRow,
                           target: .cameraWords)
                findCoveredSpans(alpha: UnsafeRawPointer(alpha.row(sourceY)), into: scratch)
                if let look { applyLook(look, toCoveredSpansOf: scratch) }
                if periodicStretch == nil && !identityColumns {
                    for span in 0..<scratch.spanCount {
                        let start = Int(scratch.spans[2 * span]), end = Int(scratch.spans[2 * span + 1])
                        if splatStretch {
                            SplatStretch.stretch(UnsafeRawPointer(scratch.cameraRow), into: scratch.outputRow,
                                                 firstOutputColumn: firstOutputColumn,
                                                 cameraColumns: Int(columns[start])..<(Int(columns[end - 1]) + 1))
                        } else {
                            stretch(scratch.cameraRow, into: scratch.outputRow, from: start, to: end)
                        }
                    }
                }
                stretchedRow = sourceY
            }
            var x = activeStart
            for span in 0..<scratch.spanCount {
                let start = Int(scratch.spans[2 * span])
                let end = Int(scratch.spans[2 * span + 1])
                Self.opaqueBackdrop(back, into: out, from: x, to: start)
                if identityColumns {
                    Self.blendWords(UnsafeRawPointer(scratch.cameraRow), over: back, into: out, from: start, to: end)
                } else if let periodic = periodicStretch {
                    blendPeriodic(periodic, camera: UnsafeRawPointer(scratch.cameraRow), over: back, into: out,
                                  from: start, to: end)
                } else {
                    Self.blendWords(UnsafeRawPointer(scratch.outputRow), over: back, into: out, from: start, to: end)
                }
                x = end
            }
            Self.opaqueBackdrop(back, into: out, from: x, to: activeEnd)
            backdropRightOfCamera(back: back, into: out, width: width)
        }
    }

    /// The same layer as `writeLayer(camera:alpha:into:rows:premultiplied:)`, bit for bit, with
    /// the band's row buffers: each camera row converted once, then stretched straight into each
    /// output row it covers.
    /// `patch` as in `compose(camera:alpha:background:into:rows:scratch:patch:)`.
    /// `look` as in `compose(...scratch:patch:look:)`: applied to the straight colours of the
    /// covered camera columns before they are multiplied by alpha, at camera width (for the
    /// camera-sized layer, the layer's own size).
    public func writeLayer(camera: ImageView, alpha: ImageView, into output: ImageView, rows: Range<Int>,
                           premultiplied: Bool, scratch: ComposeScratch, patch: PixelPatch? = nil,
                           look: ColourLookup? = nil) {
        let patched = PatchedRows(patch, scratch: scratch, camera: camera)
        guard !identityColumns || look != nil else {
            return writeLayer(camera: camera, patched: patched, alpha: alpha, into: output, rows: rows,
                              premultiplied: premultiplied)
        }
        checkInputs(camera: camera, alpha: alpha, output: output, rows: rows, outputFormat: .argb8888)
        let width = outputSize.width
        var convertedRow = -1
        for y in rows {
            let out = output.row(y)
            let sourceY = Int(rowTable[y])
            guard sourceY >= 0 else {
                fill(out, from: 0, to: width, with: 0)
                continue
            }
            fill(out, from: 0, to: activeStart, with: 0)
            fill(out, from: activeEnd, to: width, with: 0)
            if sourceY != convertedRow {
                if let look {
                    convertRow(camera: camera, patched: patched, sourceY: sourceY, alpha: alpha, into: scratch.cameraRow,
                               target: .straightLayer)
                    findCoveredSpans(alpha: UnsafeRawPointer(alpha.row(sourceY)), into: scratch)
                    applyLook(look, toCoveredSpansOf: scratch)
                    if premultiplied {
                        Self.premultiplyWords(scratch.cameraRow, from: usedColumns.lowerBound, to: usedColumns.upperBound)
                    }
                } else {
                    convertRow(camera: camera, patched: patched, sourceY: sourceY, alpha: alpha, into: scratch.cameraRow,
                               target: premultiplied ? .premultipliedLayer : .straightLayer)
                }
                convertedRow = sourceY
            }
            stretch(scratch.cameraRow, into: out, from: activeStart, to: activeEnd)
        }
    }

    /// Camera row `sourceY` over `usedColumns` as B G R A words, indexed by camera column, with
    /// the vector kernels of the direct path.
    @inline(__always)
    private func convertRow(camera: ImageView, patched: PatchedRows, sourceY: Int, alpha: ImageView,
                            into row: UnsafeMutableRawPointer, target: RowTarget) {
        blendRow(camera: camera, patched: patched, sourceY: sourceY, alpha: UnsafeRawPointer(alpha.row(sourceY)),
                 background: UnsafeRawPointer(row), output: row, target: target,
                 from: usedColumns.lowerBound, to: usedColumns.upperBound, identity: true)
    }

    /// Nearest-sample stretch of a converted camera row over output columns start..<end: one word
    /// load and store per output pixel (the mapping's table, as the gather path reads it).
    @inline(__always)
    private func stretch(_ cameraRow: UnsafeMutableRawPointer, into outputRow: UnsafeMutableRawPointer,
                         from start: Int, to end: Int) {
        let source = UnsafePointer<UInt32>(cameraRow.assumingMemoryBound(to: UInt32.self))
        let target = outputRow.assumingMemoryBound(to: UInt32.self)
        let columns = self.columns
        for x in start..<end { target[x] = source[Int(columns[x])] }
    }

    /// The look over the camera columns of the row's covered spans (`findCoveredSpans`), in the
    /// band's converted camera row. Camera words outside them are under alpha 0 and never shown.
    @inline(__always)
    private func applyLook(_ look: ColourLookup, toCoveredSpansOf scratch: ComposeScratch) {
        for span in 0..<scratch.spanCount {
            let start = Int(scratch.spans[2 * span]), end = Int(scratch.spans[2 * span + 1])
            look.apply(words: scratch.cameraRow, from: Int(columns[start]), to: Int(columns[end - 1]) + 1)
        }
    }

    /// Straight B G R A words to premultiplied ones in place, by the rule of the premultiplied
    /// layer target (colour = round(c * a / 255)).
    private static func premultiplyWords(_ row: UnsafeMutableRawPointer, from start: Int, to end: Int) {
        for x in start..<end {
            let w = row.load(fromByteOffset: x &* 4, as: UInt32.self)
            let a = Int32(w >> 24)
            let b = UInt32(AlphaBlend.divide255(Int32(w & 0xFF) &* a))
            let g = UInt32(AlphaBlend.divide255(Int32((w >> 8) & 0xFF) &* a))
            let r = UInt32(AlphaBlend.divide255(Int32((w >> 16) & 0xFF) &* a))
            row.storeBytes(of: (w & 0xFF00_0000) | b | g << 8 | r << 16, toByteOffset: x &* 4, as: UInt32.self)
        }
    }

    /// The output spans under camera row `alpha`'s non-zero pixels, found sixteen camera columns
    /// at a time (two 64-bit tests per chunk) and merged where chunks touch. Outside them every
    /// alpha is 0, so neither the stretch nor the blend is needed there.
    private func findCoveredSpans(alpha: UnsafeRawPointer, into scratch: ComposeScratch) {
        var count = 0
        var open = -1
        var column = usedColumns.lowerBound
        let end = usedColumns.upperBound
        while column < end {
            let next = min(column + 16, end)
            var covered = false
            if next - column == 16 {
                let halves = alpha.loadUnaligned(fromByteOffset: column, as: SIMD2<UInt64>.self)
                covered = halves[0] | halves[1] != 0
            } else {
                for c in column..<next where alpha.load(fromByteOffset: c, as: UInt8.self) != 0 { covered = true }
            }
            if covered {
                if open < 0 { open = column }
            } else if open >= 0 {
                count = appendSpan(cameraColumns: open..<column, to: scratch, count: count)
                open = -1
            }
            column = next
        }
        if open >= 0 { count = appendSpan(cameraColumns: open..<end, to: scratch, count: count) }
        scratch.spanCount = count
    }

    @inline(__always)
    private func appendSpan(cameraColumns: Range<Int>, to scratch: ComposeScratch, count: Int) -> Int {
        let start = firstOutputColumn[cameraColumns.lowerBound]
        let end = firstOutputColumn[cameraColumns.upperBound]
        guard start < end else { return count }
        scratch.spans[2 * count] = start
        scratch.spans[2 * count + 1] = end
        return count + 1
    }

    /// The backdrop made opaque over output columns start..<end: the blend's result where the matte
    /// is 0, without reading a camera word. With `opaque` 0, the backdrop as it is (the letterbox).
    @inline(never)
    private static func opaqueBackdrop(_ background: UnsafeRawPointer, into output: UnsafeMutableRawPointer,
                                       from start: Int, to end: Int, setting opaque: UInt32 = 0xFF00_0000) {
        var x = start
        while x &+ 8 <= end {
            let offset = x &* 4
            ReadAhead.touch(background, offset)
            let low = background.loadUnaligned(fromByteOffset: offset, as: SIMD4<UInt32>.self)
            let high = background.loadUnaligned(fromByteOffset: offset &+ 16, as: SIMD4<UInt32>.self)
            output.storeBytes(of: low | opaque, toByteOffset: offset, as: SIMD4<UInt32>.self)
            output.storeBytes(of: high | opaque, toByteOffset: offset &+ 16, as: SIMD4<UInt32>.self)
            x &+= 8
        }
        while x < end {
            let offset = x &* 4
            output.storeBytes(of: background.load(fromByteOffset: offset, as: UInt32.self) | opaque,
                              toByteOffset: offset, as: UInt32.self)
            x &+= 1
        }
    }

    /// out = round((fg * a + bg * (255 - a)) / 255) per channel for B G R A words over XRGB8888,
    /// eight pixels per step as two four-word vectors (one SSE2 or NEON register each). Groups the
    /// matte leaves transparent are the backdrop made opaque, groups it covers are the words
    /// themselves (their A is already 255): both exactly what the blend gives, without its
    /// arithmetic, and the covered ones without reading the backdrop.
    @inline(never)
    private static func blendWords(_ words: UnsafeRawPointer, over background: UnsafeRawPointer,
                                   into output: UnsafeMutableRawPointer, from start: Int, to end: Int) {
        var x = start
        while x &+ 8 <= end {
            let offset = x &* 4
            ReadAhead.touch(background, offset)
            let low = words.loadUnaligned(fromByteOffset: offset, as: SIMD4<UInt32>.self)
            let high = words.loadUnaligned(fromByteOffset: offset &+ 16, as: SIMD4<UInt32>.self)
            switch MatteCoverage(words: low, high) {
            case .transparent:
                let backLow = background.loadUnaligned(fromByteOffset: offset, as: SIMD4<UInt32>.self)
                let backHigh = background.loadUnaligned(fromByteOffset: offset &+ 16, as: SIMD4<UInt32>.self)
                output.storeBytes(of: backLow | 0xFF00_0000, toByteOffset: offset, as: SIMD4<UInt32>.self)
                output.storeBytes(of: backHigh | 0xFF00_0000, toByteOffset: offset &+ 16, as: SIMD4<UInt32>.self)
            case .opaque:
                output.storeBytes(of: low, toByteOffset: offset, as: SIMD4<UInt32>.self)
                output.storeBytes(of: high, toByteOffset: offset &+ 16, as: SIMD4<UInt32>.self)
            case .partial:
                let backLow = background.loadUnaligned(fromByteOffset: offset, as: SIMD4<UInt32>.self)
                let backHigh = background.loadUnaligned(fromByteOffset: offset &+ 16, as: SIMD4<UInt32>.self)
                output.storeBytes(of: Self.blend(words: low, over: backLow), toByteOffset: offset, as: SIMD4<UInt32>.self)
                output.storeBytes(of: Self.blend(words: high, over: backHigh), toByteOffset: offset &+ 16,
                                  as: SIMD4<UInt32>.self)
            }
            x &+= 8
        }
        while x < end {
            blendWord(words.load(fromByteOffset: x &* 4, as: UInt32.self), over: background, into: output, at: x)
            x &+= 1
        }
    }

    /// `blendWords` over the camera row stretched by `periodic`, without the stretched row: each
    /// twelve output words (a period-aligned group) come from camera words c..<c+8 (two to three)
    /// or c..<c+4 (one to three), c the group's first camera column, by constant lane shuffles.
    /// The words are those the stretch would have written, so the results are the same bits.
    @inline(never)
    private func blendPeriodic(_ periodic: PeriodicStretch, camera words: UnsafeRawPointer,
                               over background: UnsafeRawPointer, into output: UnsafeMutableRawPointer,
                               from start: Int, to end: Int) {
        let columns = self.columns
        var x = start
        let head = min(end, start &+ periodic.columnsToPeriod(start))
        while x < head {
            Self.blendWord(words.load(fromByteOffset: Int(columns[x]) &* 4, as: UInt32.self), over: background,
                           into: output, at: x)
            x &+= 1
        }
        switch periodic.ratio {
        case .twoToThree:
            while x &+ 12 <= end {
                let source = Int(columns[x]) &* 4
                let low = words.loadUnaligned(fromByteOffset: source, as: SIMD4<UInt32>.self)
                let high = words.loadUnaligned(fromByteOffset: source &+ 16, as: SIMD4<UInt32>.self)
                Self.blendTwelve(SIMD4(low[0], low[1], low[1], low[2]), SIMD4(low[3], low[3], high[0], high[1]),
                                 SIMD4(high[1], high[2], high[3], high[3]), over: background, into: output, at: x)
                x &+= 12
            }
        case .oneToThree:
            while x &+ 12 <= end {
                let four = words.loadUnaligned(fromByteOffset: Int(columns[x]) &* 4, as: SIMD4<UInt32>.self)
                Self.blendTwelve(SIMD4(four[0], four[0], four[0], four[1]), SIMD4(four[1], four[1], four[2], four[2]),
                                 SIMD4(four[2], four[3], four[3], four[3]), over: background, into: output, at: x)
                x &+= 12
            }
        }
        while x < end {
            Self.blendWord(words.load(fromByteOffset: Int(columns[x]) &* 4, as: UInt32.self), over: background,
                           into: output, at: x)
            x &+= 1
        }
    }

    /// Twelve B G R A words at output column x over the backdrop, with `blendWords`' shortcuts for
    /// a group the matte leaves transparent or covers.
    @inline(__always)
    private static func blendTwelve(_ first: SIMD4<UInt32>, _ second: SIMD4<UInt32>, _ third: SIMD4<UInt32>,
                                    over background: UnsafeRawPointer, into output: UnsafeMutableRawPointer, at x: Int) {
        let offset = x &* 4
        ReadAhead.touch(background, offset)
        ReadAhead.touch(background, offset &+ 32)
        switch MatteCoverage(wordsOr: first | second | third, wordsAnd: first & second & third) {
        case .transparent:
            for part in stride(from: 0, to: 48, by: 16) {
                let back = background.loadUnaligned(fromByteOffset: offset &+ part, as: SIMD4<UInt32>.self)
                output.storeBytes(of: back | 0xFF00_0000, toByteOffset: offset &+ part, as: SIMD4<UInt32>.self)
            }
        case .opaque:
            output.storeBytes(of: first, toByteOffset: offset, as: SIMD4<UInt32>.self)
            output.storeBytes(of: second, toByteOffset: offset &+ 16, as: SIMD4<UInt32>.self)
            output.storeBytes(of: third, toByteOffset: offset &+ 32, as: SIMD4<UInt32>.self)
        case .partial:
            let backFirst = background.loadUnaligned(fromByteOffset: offset, as: SIMD4<UInt32>.self)
            let backSecond = background.loadUnaligned(fromByteOffset: offset &+ 16, as: SIMD4<UInt32>.self)
            let backThird = background.loadUnaligned(fromByteOffset: offset &+ 32, as: SIMD4<UInt32>.self)
            output.storeBytes(of: blend(words: first, over: backFirst), toByteOffset: offset, as: SIMD4<UInt32>.self)
            output.storeBytes(of: blend(words: second, over: backSecond), toByteOffset: offset &+ 16, as: SIMD4<UInt32>.self)
            output.storeBytes(of: blend(words: third, over: backThird), toByteOffset: offset &+ 32, as: SIMD4<UInt32>.self)
        }
    }

    /// One B G R A word at output column x over the backdrop (the tails of `blendWords` and
    /// `blendPeriodic`).
    @inline(__always)
    private static func blendWord(_ word: UInt32, over background: UnsafeRawPointer, into output: UnsafeMutableRawPointer,
                                  at x: Int) {
        store1((r: Int32((word >> 16) & 0xFF), g: Int32((word >> 8) & 0xFF), b: Int32(word & 0xFF)),
               alpha: Int32(word >> 24), background: background + x &* 4, output: output + x &* 4, target: .frame)
    }

    /// The matte as grey (alpha 0 black, 255 white) for tuning; black outside the camera's rectangle.
    /// Every pixel is opaque, so it serves a whole frame (XRGB8888) and a display's overlay layer
    /// (ARGB8888, which then hides the backdrop plane) alike.
    public func composeMatteView(alpha: ImageView, into output: ImageView, rows: Range<Int>) {
        precondition(alpha.format == .alpha8 && alpha.size == cameraSize, "alpha must be ALPHA8 at the camera size")
        precondition((output.format == .xrgb8888 || output.format == .argb8888) && output.size == outputSize,
                     "output must be XRGB8888 or ARGB8888 at the output size")
        precondition(rows.lowerBound >= 0 && rows.upperBound <= outputSize.height)
        let width = outputSize.width
        for y in rows {
            let out = output.row(y)
            let sourceY = Int(rowTable[y])
            guard sourceY >= 0 else {
                fill(out, from: 0, to: width, with: 0xFF00_0000)
                continue
            }
            fill(out, from: 0, to: activeStart, with: 0xFF00_0000)
            fill(out, from: activeEnd, to: width, with: 0xFF00_0000)
            let source = UnsafeRawPointer(alpha.row(sourceY))
            var x = activeStart
            if identityColumns {
                while x + 16 <= activeEnd {
                    let grey = SIMD16<UInt32>(truncatingIfNeeded: source.loadUnaligned(fromByteOffset: x, as: SIMD16<UInt8>.self))
                    out.storeBytes(of: (grey &* 0x0001_0101) | 0xFF00_0000, toByteOffset: x * 4, as: SIMD16<UInt32>.self)
                    x += 16
                }
            }
            while x < activeEnd {
                let grey = UInt32(source.load(fromByteOffset: Int(columns[x]), as: UInt8.self))
                out.storeBytes(of: (grey &* 0x0001_0101) | 0xFF00_0000, toByteOffset: x * 4, as: UInt32.self)
                x += 1
            }
        }
    }

    /// ARGB8888 premultiplied (B G R A bytes, colour = round(fg * a / 255), A = a) at the output
    /// size, for a display overlay plane above a backdrop plane. Transparent outside the camera.
    public func writePremultipliedLayer(camera: ImageView, alpha: ImageView, into output: ImageView, rows: Range<Int>) {
        writeLayer(camera: camera, alpha: alpha, into: output, rows: rows, premultiplied: true)
    }

    /// The camera layer as the overlay plane's blend mode wants it: premultiplied (colour already
    /// multiplied by alpha: "Pre-multiplied", the DRM default) or straight ("Coverage", colour as
    /// captured, A = a).
    public func writeLayer(camera: ImageView, alpha: ImageView, into output: ImageView, rows: Range<Int>,
                           premultiplied: Bool) {
        writeLayer(camera: camera, patched: .none, alpha: alpha, into: output, rows: rows, premultiplied: premultiplied)
    }

    private func writeLayer(camera: ImageView, patched: PatchedRows, alpha: ImageView, into output: ImageView,
                            rows: Range<Int>, premultiplied: Bool) {
        let layerTarget: RowTarget = premultiplied ? .premultipliedLayer : .straightLayer
        checkInputs(camera: camera, alpha: alpha, output: output, rows: rows, outputFormat: .argb8888)
        let width = outputSize.width
        for y in rows {
            let out = output.row(y)
            let sourceY = Int(rowTable[y])
            guard sourceY >= 0 else {
                fill(out, from: 0, to: width, with: 0)
                continue
            }
            fill(out, from: 0, to: activeStart, with: 0)
            fill(out, from: activeEnd, to: width, with: 0)
            blendRow(camera: camera, patched: patched, sourceY: sourceY, alpha: UnsafeRawPointer(alpha.row(sourceY)),
                     background: UnsafeRawPointer(out), output: out, target: layerTarget,
                     from: activeStart, to: activeEnd, identity: identityColumns)
        }
    }

    /// Camera row `sourceY` as the row kernels read it: the frame's own bytes, or, where `patched`
    /// has writes in that row, the band's copy of the row with them laid in (a row of a few KB, in
    /// the first-level cache: no copy of the whole frame is made or read back).
    @inline(__always)
    private func cameraRow(_ camera: ImageView, _ sourceY: Int, _ patched: PatchedRows) -> UnsafeRawPointer {
        let row = camera.row(sourceY)
        guard let patch = patched.patch, let spare = patched.spare, patch.hasEntries(inRow: sourceY) else {
            return UnsafeRawPointer(row)
        }
        spare.copyMemory(from: UnsafeRawPointer(row), byteCount: cameraFormat.minimumBytesPerRow(width: cameraSize.width))
        patch.write(row: sourceY, format: cameraFormat, into: spare)
        return UnsafeRawPointer(spare)
    }

    private func checkInputs(camera: ImageView, alpha: ImageView, output: ImageView, rows: Range<Int>,
                             outputFormat: PixelFormat = .xrgb8888) {
        precondition(camera.format == cameraFormat && camera.size == cameraSize, "camera frame does not match the compositor")
        precondition(alpha.format == .alpha8 && alpha.size == cameraSize, "alpha must be ALPHA8 at the camera size")
        precondition(output.format == outputFormat && output.size == outputSize, "output must be \(outputFormat.name) at the output size")
        precondition(rows.lowerBound >= 0 && rows.upperBound <= outputSize.height, "rows outside the output")
    }

    @inline(__always)
    private func fill(_ row: UnsafeMutableRawPointer, from start: Int, to end: Int, with word: UInt32) {
        guard start < end else { return }
        (row + start * 4).bindMemory(to: UInt32.self, capacity: end - start).update(repeating: word, count: end - start)
    }

    // MARK: Row kernels

    /// The row kernel for the camera's format and the target, each its own function, out of line and
    /// specialised for one target (`RowTargetChoice`): a row is a long loop, and a function that
    /// holds every format's and target's kernel grows past the optimiser's size limits, after which
    /// even one-instruction SIMD helpers (lane conversions, min and max) stay calls in the loops.
    @inline(__always)
    private func blendRow(camera: ImageView, patched: PatchedRows, sourceY: Int, alpha: UnsafeRawPointer,
                          background: UnsafeRawPointer,
                          output: UnsafeMutableRawPointer, target: RowTarget,
                          from activeStart: Int, to activeEnd: Int, identity identityColumns: Bool) {
        switch target {
        case .frame:
            blendRow(FrameRow.self, camera: camera, patched: patched, sourceY: sourceY, alpha: alpha, background: background, output: output,
                     from: activeStart, to: activeEnd, identity: identityColumns)
        case .premultipliedLayer:
            blendRow(PremultipliedLayerRow.self, camera: camera, patched: patched, sourceY: sourceY, alpha: alpha, background: background,
                     output: output, from: activeStart, to: activeEnd, identity: identityColumns)
        case .straightLayer:
            blendRow(StraightLayerRow.self, camera: camera, patched: patched, sourceY: sourceY, alpha: alpha, background: background,
                     output: output, from: activeStart, to: activeEnd, identity: identityColumns)
        case .cameraWords:
            blendRow(CameraWordsRow.self, camera: camera, patched: patched, sourceY: sourceY, alpha: alpha, background: background,
                     output: output, from: activeStart, to: activeEnd, identity: identityColumns)
        }
    }

    @inline(__always)
    private func blendRow<Choice: RowTargetChoice>(_ choice: Choice.Type, camera: ImageView, patched: PatchedRows,
                                                   sourceY: Int, alpha: UnsafeRawPointer,
                                                   background: UnsafeRawPointer, output: UnsafeMutableRawPointer,
                                                   from activeStart: Int, to activeEnd: Int, identity identityColumns: Bool) {
        switch cameraFormat {
        case .yuyv:
            yuyvRow(choice, camera: camera, patched: patched, sourceY: sourceY, alpha: alpha, background: background, output: output,
                    from: activeStart, to: activeEnd, identity: identityColumns)
        case .nv12:
            nv12Row(choice, camera: camera, patched: patched, sourceY: sourceY, alpha: alpha, background: background, output: output,
                    from: activeStart, to: activeEnd, identity: identityColumns)
        default:  // .rgb24, checked in init
            rgb24Row(choice, camera: camera, patched: patched, sourceY: sourceY, alpha: alpha, background: background, output: output,
                     from: activeStart, to: activeEnd, identity: identityColumns)
        }
    }

    /// One YUYV row (see `blendRow`).
    @inline(never)
    private func yuyvRow<Choice: RowTargetChoice>(_: Choice.Type, camera: ImageView, patched: PatchedRows, sourceY: Int,
                         alpha: UnsafeRawPointer,
                         background: UnsafeRawPointer, output: UnsafeMutableRawPointer,
                         from activeStart: Int, to activeEnd: Int, identity identityColumns: Bool) {
        let target = Choice.target
        let columns = self.columns
        let source = cameraRow(camera, sourceY, patched)
        var x = activeStart
        if identityColumns {
            while x &+ 16 <= activeEnd {
                Self.readAhead(background: background, camera: source, x: x, cameraBytesPerPixel: 2, target: target)
                let matte = alpha.loadUnaligned(fromByteOffset: x, as: SIMD16<UInt8>.self)
                guard let groupTarget = Self.groupTarget(matte: matte, background: background + x &* 4,
                                                         output: output + x &* 4, target: target) else {
                    x &+= 16
                    continue
                }
                let words = source.loadUnaligned(fromByteOffset: x &* 2, as: SIMD8<UInt32>.self)
                // Y0 Cb Y1 Cr per word: luma is the low byte of each 16-bit half; each pixel pair's
                // chroma is copied into both of its 16-bit lanes by arithmetic, not shuffles.
                let luma = unsafeBitCast(words, to: SIMD16<Int16>.self) & 0x00FF
                let cb = (words &>> 8) & 0xFF
                let cr = words &>> 24
                let rgb = Self.rgbLanes(y: luma, cb: unsafeBitCast(cb | (cb &<< 16), to: SIMD16<Int16>.self),
                                          cr: unsafeBitCast(cr | (cr &<< 16), to: SIMD16<Int16>.self))
                Self.store16(rgb, alpha: matte, background: background + x &* 4, output: output + x &* 4,
                             target: groupTarget)
                x &+= 16
            }
        }
        // Scaled: gather sixteen samples into vectors, then the same vector maths.
        while x + 16 <= activeEnd {
            var samples = GatheredPixels()
            samples.gather { lane in
                let sourceX = Int(columns[x &+ lane])
                let pair = (sourceX & ~1) &* 2
                return (source.load(fromByteOffset: sourceX &* 2, as: UInt8.self),
                        source.load(fromByteOffset: pair &+ 1, as: UInt8.self),
                        source.load(fromByteOffset: pair &+ 3, as: UInt8.self),
                        alpha.load(fromByteOffset: sourceX, as: UInt8.self))
            }
            Self.store16(Self.rgbLanes(y: samples.first, cb: samples.second, cr: samples.third), alpha: samples.alpha, background: background + x * 4,
                         output: output + x * 4, target: target)
            x += 16
        }
        while x < activeEnd {
            let sourceX = identityColumns ? x : Int(columns[x])
            let pair = (sourceX & ~1) * 2
            let rgb = YCbCr.rgb(y: Int32(source.load(fromByteOffset: sourceX * 2, as: UInt8.self)),
                                cb: Int32(source.load(fromByteOffset: pair + 1, as: UInt8.self)),
                                cr: Int32(source.load(fromByteOffset: pair + 3, as: UInt8.self)))
            Self.store1(rgb, alpha: Int32(alpha.load(fromByteOffset: sourceX, as: UInt8.self)),
                        background: background + x * 4, output: output + x * 4, target: target)
            x += 1
        }
    }

    /// One NV12 row (see `blendRow`).
    @inline(never)
    private func nv12Row<Choice: RowTargetChoice>(_: Choice.Type, camera: ImageView, patched: PatchedRows, sourceY: Int,
                         alpha: UnsafeRawPointer,
                         background: UnsafeRawPointer, output: UnsafeMutableRawPointer,
                         from activeStart: Int, to activeEnd: Int, identity identityColumns: Bool) {
        let target = Choice.target
        let columns = self.columns
        let lumaRow = cameraRow(camera, sourceY, patched)
        let chromaRow = UnsafeRawPointer(camera.chromaPlane! + (sourceY / 2) * camera.bytesPerRow)
        var x = activeStart
        if identityColumns {
            while x &+ 16 <= activeEnd {
                Self.readAhead(background: background, camera: lumaRow, x: x, cameraBytesPerPixel: 1, target: target)
                let matte = alpha.loadUnaligned(fromByteOffset: x, as: SIMD16<UInt8>.self)
                guard let groupTarget = Self.groupTarget(matte: matte, background: background + x &* 4,
                                                         output: output + x &* 4, target: target) else {
                    x &+= 16
                    continue
                }
                let luma = GatheredPixels.widen(lumaRow.loadUnaligned(fromByteOffset: x, as: SIMD16<UInt8>.self))
                let pairs = SIMD8<UInt32>(truncatingIfNeeded: chromaRow.loadUnaligned(fromByteOffset: x, as: SIMD8<UInt16>.self))
                let cb = pairs & 0xFF
                let cr = pairs &>> 8
                let rgb = Self.rgbLanes(y: luma, cb: unsafeBitCast(cb | (cb &<< 16), to: SIMD16<Int16>.self),
                                          cr: unsafeBitCast(cr | (cr &<< 16), to: SIMD16<Int16>.self))
                Self.store16(rgb, alpha: matte, background: background + x &* 4, output: output + x &* 4,
                             target: groupTarget)
                x &+= 16
            }
        }
        while x + 16 <= activeEnd {
            var samples = GatheredPixels()
            samples.gather { lane in
                let sourceX = Int(columns[x &+ lane])
                let pair = sourceX & ~1
                return (lumaRow.load(fromByteOffset: sourceX, as: UInt8.self),
                        chromaRow.load(fromByteOffset: pair, as: UInt8.self),
                        chromaRow.load(fromByteOffset: pair &+ 1, as: UInt8.self),
                        alpha.load(fromByteOffset: sourceX, as: UInt8.self))
            }
            Self.store16(Self.rgbLanes(y: samples.first, cb: samples.second, cr: samples.third), alpha: samples.alpha, background: background + x * 4,
                         output: output + x * 4, target: target)
            x += 16
        }
        while x < activeEnd {
            let sourceX = identityColumns ? x : Int(columns[x])
            let pair = sourceX & ~1
            let rgb = YCbCr.rgb(y: Int32(lumaRow.load(fromByteOffset: sourceX, as: UInt8.self)),
                                cb: Int32(chromaRow.load(fromByteOffset: pair, as: UInt8.self)),
                                cr: Int32(chromaRow.load(fromByteOffset: pair + 1, as: UInt8.self)))
            Self.store1(rgb, alpha: Int32(alpha.load(fromByteOffset: sourceX, as: UInt8.self)),
                        background: background + x * 4, output: output + x * 4, target: target)
            x += 1
        }
    }

    /// One RGB24 row (see `blendRow`).
    @inline(never)
    private func rgb24Row<Choice: RowTargetChoice>(_: Choice.Type, camera: ImageView, patched: PatchedRows, sourceY: Int,
                         alpha: UnsafeRawPointer,
                         background: UnsafeRawPointer, output: UnsafeMutableRawPointer,
                         from activeStart: Int, to activeEnd: Int, identity identityColumns: Bool) {
        let target = Choice.target
        let columns = self.columns
        let source = cameraRow(camera, sourceY, patched)
        var x = activeStart
        while x + 16 <= activeEnd {
            var groupTarget = target
            if identityColumns {
                Self.readAhead(background: background, camera: source, x: x, cameraBytesPerPixel: 3, target: target)
                guard let covered = Self.groupTarget(matte: alpha.loadUnaligned(fromByteOffset: x, as: SIMD16<UInt8>.self),
                                                     background: background + x &* 4, output: output + x &* 4,
                                                     target: target) else {
                    x &+= 16
                    continue
                }
                groupTarget = covered
            }
            var samples = GatheredPixels()
            samples.gather { lane in
                let sourceX = (identityColumns ? x &+ lane : Int(columns[x &+ lane])) &* 3
                return (source.load(fromByteOffset: sourceX, as: UInt8.self),
                        source.load(fromByteOffset: sourceX &+ 1, as: UInt8.self),
                        source.load(fromByteOffset: sourceX &+ 2, as: UInt8.self),
                        alpha.load(fromByteOffset: sourceX / 3, as: UInt8.self))
            }
            Self.store16((r: samples.first, g: samples.second, b: samples.third), alpha: samples.alpha, background: background + x * 4,
                         output: output + x * 4, target: groupTarget)
            x += 16
        }
        while x < activeEnd {
            let sourceX = identityColumns ? x : Int(columns[x])
            let rgb = (r: Int32(source.load(fromByteOffset: sourceX * 3, as: UInt8.self)),
                       g: Int32(source.load(fromByteOffset: sourceX * 3 + 1, as: UInt8.self)),
                       b: Int32(source.load(fromByteOffset: sourceX * 3 + 2, as: UInt8.self)))
            Self.store1(rgb, alpha: Int32(alpha.load(fromByteOffset: sourceX, as: UInt8.self)),
                        background: background + x * 4, output: output + x * 4, target: target)
            x += 1
        }
    }


    /// Prefetch for an identity row kernel's group of sixteen at `x`: the backdrop's line where the
    /// target reads one (a frame; the layers read none), and the camera row's.
    @inline(__always)
    private static func readAhead(background: UnsafeRawPointer, camera: UnsafeRawPointer, x: Int,
                                  cameraBytesPerPixel: Int, target: RowTarget) {
        if target == .frame { ReadAhead.touch(background, x &* 4) }
        ReadAhead.touch(camera, x &* cameraBytesPerPixel)
    }

    /// How sixteen pixels under `matte` are written, from its coverage: nil when all are transparent
    /// and `storeTransparent` has written them already; the straight layer when all are opaque,
    /// which needs no backdrop and no multiply; `target` otherwise.
    @inline(__always)
    private static func groupTarget(matte: SIMD16<UInt8>, background: UnsafeRawPointer,
                                    output: UnsafeMutableRawPointer, target: RowTarget) -> RowTarget? {
        switch MatteCoverage(matte) {
        case .transparent:
            return storeTransparent(background: background, output: output, target: target) ? nil : target
        case .opaque:
            return .straightLayer
        case .partial:
            return target
        }
    }

    /// Sixteen pixels under alpha 0, where the target's result does not depend on the camera: the
    /// backdrop made opaque (frame), zero words (premultiplied layer) or nothing (the scaled
    /// path's row buffer). False for the straight layer, which keeps the camera's colour under
    /// any alpha.
    @inline(__always)
    private static func storeTransparent(background: UnsafeRawPointer, output: UnsafeMutableRawPointer,
                                         target: RowTarget) -> Bool {
        switch target {
        case .frame:
            for offset in stride(from: 0, to: 64, by: 16) {
                let back = background.loadUnaligned(fromByteOffset: offset, as: SIMD4<UInt32>.self)
                output.storeBytes(of: back | 0xFF00_0000, toByteOffset: offset, as: SIMD4<UInt32>.self)
            }
            return true
        case .premultipliedLayer:
            for offset in stride(from: 0, to: 64, by: 16) {
                output.storeBytes(of: SIMD4<UInt32>(), toByteOffset: offset, as: SIMD4<UInt32>.self)
            }
            return true
        case .cameraWords:
            // Nothing is stored: the row buffer is read only over `findCoveredSpans`' spans, whose
            // sixteen-column chunks are these groups, and a group all 0 is never in one.
            return true
        case .straightLayer:
            return false
        }
    }

    /// Blends sixteen pixels, as two halves of eight in a "byte pair" layout: each 32-bit pixel is
    /// viewed as two 16-bit lanes, (B, R) and (G, X), so background bytes are split by mask and
    /// shift and the result is rejoined the same way. Only vectors of at most 16 lanes are used:
    /// wider ones fall back to element loops in the standard library's generic SIMD code.
    @inline(__always)
    private static func store16(_ rgb: (r: SIMD16<Int16>, g: SIMD16<Int16>, b: SIMD16<Int16>), alpha: SIMD16<UInt8>,
                                background: UnsafeRawPointer, output: UnsafeMutableRawPointer, target: RowTarget) {
        store8(blue: rgb.b.lowHalf, green: rgb.g.lowHalf, red: rgb.r.lowHalf, alpha: alpha.lowHalf,
               background: background, output: output, target: target)
        store8(blue: rgb.b.highHalf, green: rgb.g.highHalf, red: rgb.r.highHalf, alpha: alpha.highHalf,
               background: background + 32, output: output + 32, target: target)
    }

    @inline(__always)
    private static func store8(blue: SIMD8<Int16>, green: SIMD8<Int16>, red: SIMD8<Int16>, alpha: SIMD8<UInt8>,
                               background: UnsafeRawPointer, output: UnsafeMutableRawPointer, target: RowTarget) {
        let alpha16 = SIMD8<Int16>(truncatingIfNeeded: alpha)
        let alphaPairs = pairs(alpha16, alpha16)
        let words: SIMD16<UInt16>
        switch target {
        case .premultipliedLayer:
            let blueRed = AlphaBlend.divide255(pairs(blue, red) &* alphaPairs)
            let greenOnly = AlphaBlend.divide255(pairs(green, SIMD8(repeating: 0)) &* alphaPairs)
            words = blueRed | ((greenOnly | pairs(SIMD8(repeating: 0), alpha16)) &<< 8)
        case .straightLayer, .cameraWords:
            words = pairs(blue, red) | ((pairs(green, SIMD8(repeating: 0)) | pairs(SIMD8(repeating: 0), alpha16)) &<< 8)
        case .frame:
            let back = background.loadUnaligned(as: SIMD16<UInt16>.self)
            let blueRed = blendLanes(pairs(blue, red), back & 0x00FF, alpha: alphaPairs)
            let greenX = blendLanes(pairs(green, SIMD8(repeating: 255)), back &>> 8, alpha: alphaPairs)
            words = blueRed | (greenX &<< 8) | pairs(SIMD8(repeating: 0), SIMD8(repeating: -256))
        }
        output.storeBytes(of: words, as: SIMD16<UInt16>.self)
    }

    /// Interleaves two 8-lane vectors into (low[0], high[0], low[1], high[1], ...) by widening,
    /// which compiles to unpack instructions.
    @inline(__always)
    private static func pairs(_ low: SIMD8<Int16>, _ high: SIMD8<Int16>) -> SIMD16<UInt16> {
        let lowWide = SIMD8<UInt32>(truncatingIfNeeded: SIMD8<UInt16>(truncatingIfNeeded: low))
        let highWide = SIMD8<UInt32>(truncatingIfNeeded: SIMD8<UInt16>(truncatingIfNeeded: high))
        return unsafeBitCast(lowWide | (highWide &<< 16), to: SIMD16<UInt16>.self)
    }

    @inline(__always)
    private static func store1(_ rgb: (r: Int32, g: Int32, b: Int32), alpha: Int32,
                               background: UnsafeRawPointer, output: UnsafeMutableRawPointer, target: RowTarget) {
        let word: UInt32
        switch target {
        case .premultipliedLayer:
            let b = AlphaBlend.divide255(rgb.b &* alpha)
            let g = AlphaBlend.divide255(rgb.g &* alpha)
            let r = AlphaBlend.divide255(rgb.r &* alpha)
            word = UInt32(b) | UInt32(g) << 8 | UInt32(r) << 16 | UInt32(alpha) << 24
        case .straightLayer, .cameraWords:
            word = UInt32(rgb.b) | UInt32(rgb.g) << 8 | UInt32(rgb.r) << 16 | UInt32(alpha) << 24
        case .frame:
            let back = background.loadUnaligned(as: UInt32.self)
            let b = AlphaBlend.blend(rgb.b, Int32(back & 0xFF), alpha: alpha)
            let g = AlphaBlend.blend(rgb.g, Int32((back >> 8) & 0xFF), alpha: alpha)
            let r = AlphaBlend.blend(rgb.r, Int32((back >> 16) & 0xFF), alpha: alpha)
            word = UInt32(b) | UInt32(g) << 8 | UInt32(r) << 16 | 0xFF00_0000
        }
        output.storeBytes(of: word, as: UInt32.self)
    }
}

/// The SIMD arithmetic of the row kernels, kept in this file with the loops that use it: SwiftPM
/// compiles a module's files to separate LLVM modules, and a standard-library generic (a lane
/// conversion, min, max) specialised for a helper in another file stays a call in these loops.
extension Compositor {
    /// `YCbCr.rgb`'s sixteen-lane form, the same arithmetic and so the same results. Frames' own
    /// form calls its clamp out of line from other modules (@usableFromInline, not @inlinable:
    /// three calls per sixteen pixels) and clamps with seven shift-and-mask steps where an
    /// eight-lane max and min are one instruction each (pmaxsw/pminsw, smax/smin). Tests check it
    /// against the scalar `YCbCr.rgb` for every input.
    @inline(__always)
    static func rgbLanes(y: SIMD16<Int16>, cb: SIMD16<Int16>, cr: SIMD16<Int16>)
        -> (r: SIMD16<Int16>, g: SIMD16<Int16>, b: SIMD16<Int16>) {
        // The -15040 bias (-235 * 64) keeps every intermediate inside Int16; see YCbCr.
        let luma = y &* 74 &+ ((y &* 66) &>> 7) &+ (-1160 &- 15040)
        let u = cb &- 128
        let v = cr &- 128
        return (channelLanes(luma &+ v &* 102), channelLanes(luma &- u &* 25 &- v &* 52), channelLanes(luma &+ u &* 129))
    }

    /// Undoes the bias after the floor shift and clamps to 0...255, in eight-lane halves (the
    /// sixteen-lane min and max are not single instructions on either target).
    @inline(__always)
    static func channelLanes(_ biased: SIMD16<Int16>) -> SIMD16<Int16> {
        SIMD16(lowHalf: clampLanes(biased.lowHalf), highHalf: clampLanes(biased.highHalf))
    }

    @inline(__always)
    static func clampLanes(_ biased: SIMD8<Int16>) -> SIMD8<Int16> {
        pointwiseMin(pointwiseMax((biased &>> 6) &+ 235, SIMD8()), SIMD8(repeating: 255))
    }

    /// `AlphaBlend.divide255` for eight lanes, the same numbers. On x86-64 as (t + 128) * 257 >> 16
    /// (floor((x + floor(x / 256)) / 256) = floor(x * 257 / 65536)): one SSE2 multiply-high
    /// (pmulhuw) instead of two shifts and an add. NEON has no 16-bit multiply-high but folds the
    /// shift-and-add into one usra, so it keeps the shift form.
    @inline(__always)
    static func divide255Lanes(_ t: SIMD8<UInt16>) -> SIMD8<UInt16> {
        #if arch(x86_64)
        let wide = SIMD8<UInt32>(truncatingIfNeeded: t &+ 128) &* 257
        return SIMD8<UInt16>(truncatingIfNeeded: wide &>> 16)
        #else
        return AlphaBlend.divide255(t)
        #endif
    }

    /// `AlphaBlend.blend` for sixteen lanes, with `divide255Lanes`.
    @inline(__always)
    static func blendLanes(_ fg: SIMD16<UInt16>, _ bg: SIMD16<UInt16>, alpha: SIMD16<UInt16>) -> SIMD16<UInt16> {
        let t = fg &* alpha &+ bg &* (SIMD16(repeating: 255) &- alpha)
        return SIMD16(lowHalf: divide255Lanes(t.lowHalf), highHalf: divide255Lanes(t.highHalf))
    }

    /// Four B G R A words (A = alpha) over four XRGB8888 backdrop words, out opaque, by
    /// `AlphaBlend`'s rule. Each word is two 16-bit lanes, (B, G) and (R, A): masking the low bytes
    /// gives (B, R), shifting gives (G, A), so one multiply serves two channels and no lane is
    /// shuffled. The (G, A) lane's upper result, A over X, is overwritten by the opaque byte.
    @inline(__always)
    static func blend(words: SIMD4<UInt32>, over backdrop: SIMD4<UInt32>) -> SIMD4<UInt32> {
        let a = words &>> 24
        let alpha = unsafeBitCast(a | (a &<< 16), to: SIMD8<UInt16>.self)
        let inverse = alpha ^ 0x00FF
        let fg = unsafeBitCast(words, to: SIMD8<UInt16>.self)
        let bg = unsafeBitCast(backdrop, to: SIMD8<UInt16>.self)
        let blueRed = divide255Lanes((fg & 0x00FF) &* alpha &+ (bg & 0x00FF) &* inverse)
        let greenAlpha = divide255Lanes((fg &>> 8) &* alpha &+ (bg &>> 8) &* inverse)
        return unsafeBitCast(blueRed | (greenAlpha &<< 8), to: SIMD4<UInt32>.self) | 0xFF00_0000
    }
}

/// What a row kernel writes: a finished frame over the backdrop, or the camera layer alone with
/// its alpha, colour multiplied by it or not.
enum RowTarget {
    case frame
    case premultipliedLayer
    case straightLayer
    /// The straight layer as the scaled frame path's row buffer, which only the covered spans'
    /// blend reads: a group of sixteen under alpha 0 is neither converted nor stored.
    case cameraWords
}

/// A `RowTarget` as a type, so that a row kernel generic over it is specialised (and its target's
/// branches folded away) once per target.
protocol RowTargetChoice {
    static var target: RowTarget { get }
}

enum FrameRow: RowTargetChoice {
    static var target: RowTarget { .frame }
}

enum PremultipliedLayerRow: RowTargetChoice {
    static var target: RowTarget { .premultipliedLayer }
}

enum StraightLayerRow: RowTargetChoice {
    static var target: RowTarget { .straightLayer }
}

enum CameraWordsRow: RowTargetChoice {
    static var target: RowTarget { .cameraWords }
}
