/// Nearest-sample stretch of a converted camera row into the scaled frame path's output-row
/// buffer by one four-word store per camera pixel, for the mappings with no three-column period
/// (848 -> 1920, letterboxed fits): camera column c's word, splatted to four lanes, is stored at
/// c's first output column, and the next column's store, at that column plus c's run, overwrites
/// what ran past it. Why: the table stretch loads an index and a word and stores a word per
/// output pixel, 2.26 of them per camera pixel at 848 -> 1920, and was a tenth of compose there.
///
/// Correct when no camera column covers more than four output columns: output column x then
/// holds the last camera column stored at or before it, which is the one the mapping names
/// (a column covering none, as a downscale has, is overwritten whole). The buffer needs
/// `overrun` words of slack past the span's end. Words past the span are left undefined.
enum SplatStretch {
    /// How many output columns one camera column may cover.
    static let longestRun = 4
    /// Words a span's last store may write past its end.
    static let overrun = longestRun - 1

    /// Whether the mapping suits it: no run longer than `longestRun`, and fewer camera columns
    /// than output columns to store (a downscale stores more words with it than without).
    static func suits(firstOutputColumn: UnsafePointer<Int32>, cameraColumns: Range<Int>, outputColumns: Int) -> Bool {
        guard !cameraColumns.isEmpty, cameraColumns.count < outputColumns else { return false }
        for c in cameraColumns where firstOutputColumn[c + 1] - firstOutputColumn[c] > Int32(longestRun) { return false }
        return true
    }

    /// Writes the output-row words of camera columns `cameraColumns` (every column whose run
    /// starts in the span) at their first output columns.
    @inline(never)
    static func stretch(_ cameraRow: UnsafeRawPointer, into outputRow: UnsafeMutableRawPointer,
                        firstOutputColumn: UnsafePointer<Int32>, cameraColumns: Range<Int>) {
        var c = cameraColumns.lowerBound
        let end = cameraColumns.upperBound
        while c &+ 4 <= end {
            let four = cameraRow.loadUnaligned(fromByteOffset: c &* 4, as: SIMD4<UInt32>.self)
            let at = firstOutputColumn + c
            outputRow.storeBytes(of: SIMD4(repeating: four[0]), toByteOffset: Int(at[0]) &* 4, as: SIMD4<UInt32>.self)
            outputRow.storeBytes(of: SIMD4(repeating: four[1]), toByteOffset: Int(at[1]) &* 4, as: SIMD4<UInt32>.self)
            outputRow.storeBytes(of: SIMD4(repeating: four[2]), toByteOffset: Int(at[2]) &* 4, as: SIMD4<UInt32>.self)
            outputRow.storeBytes(of: SIMD4(repeating: four[3]), toByteOffset: Int(at[3]) &* 4, as: SIMD4<UInt32>.self)
            c &+= 4
        }
        while c < end {
            let word = cameraRow.load(fromByteOffset: c &* 4, as: UInt32.self)
            outputRow.storeBytes(of: SIMD4(repeating: word), toByteOffset: Int(firstOutputColumn[c]) &* 4,
                                 as: SIMD4<UInt32>.self)
            c &+= 1
        }
    }
}
