/// One band's row buffers for the scaled compose path: the current camera row converted to
/// BGRA words (camera width) and that row stretched to the output width; and, on every path, the
/// camera row with the rim's corrections laid in. One per band, owned by
/// the caller that runs the band, made at start-up by `Compositor.makeScratch()`; two bands never
/// share one (each band writes its scratch). About 4 B per camera column plus 4 B per output
/// column: it stays in the first-level caches, so the output is the only full-frame traffic.
public final class ComposeScratch {
    let cameraRow: UnsafeMutableRawPointer
    let outputRow: UnsafeMutableRawPointer
    /// The current camera row with the matte's rim corrections laid in (see `PatchedRows`), in the
    /// camera's own format: at most 4 B per column (RGB24 takes 3, YUYV 2, NV12's luma 1).
    let patchedRow: UnsafeMutableRawPointer
    let patchedRowBytes: Int
    /// The current camera row's covered output spans (see `Compositor.findCoveredSpans`), start
    /// and end pairs: at most one per 16-column chunk of the camera row.
    let spans: UnsafeMutablePointer<Int32>
    var spanCount = 0

    init(cameraWidth: Int, outputWidth: Int) {
        cameraRow = .allocate(byteCount: cameraWidth * 4, alignment: 64)
        // `SplatStretch`'s last store of a span may run past the row's last column.
        outputRow = .allocate(byteCount: (outputWidth + SplatStretch.overrun) * 4, alignment: 64)
        patchedRowBytes = cameraWidth * 4
        patchedRow = .allocate(byteCount: patchedRowBytes, alignment: 64)
        spans = .allocate(capacity: 2 * (cameraWidth / 16 + 2))
    }

    deinit {
        cameraRow.deallocate()
        outputRow.deallocate()
        patchedRow.deallocate()
        spans.deallocate()
    }
}
