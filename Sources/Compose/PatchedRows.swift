import Frames

/// Which camera rows the row kernels read as corrected: `patch`'s rows, each copied into `spare`
/// (the band's `ComposeScratch.patchedRow`) with its writes laid in as the kernel reads it. Without
/// a patch every row is the camera frame's own. Lives for one call: the patch is valid only
/// between the matte's runs (see `PixelPatch`).
struct PatchedRows {
    static var none: PatchedRows { PatchedRows(patch: nil, spare: nil) }

    let patch: PixelPatch?
    let spare: UnsafeMutableRawPointer?

    private init(patch: PixelPatch?, spare: UnsafeMutableRawPointer?) {
        self.patch = patch
        self.spare = spare
    }

    init(_ patch: PixelPatch?, scratch: ComposeScratch, camera: ImageView) {
        if let patch {
            precondition(patch.size == camera.size, "rim patch made for another camera size")
            precondition(camera.format.minimumBytesPerRow(width: camera.size.width) <= scratch.patchedRowBytes,
                         "compose scratch too small for the camera's row")
        }
        self.patch = patch
        spare = patch == nil ? nil : scratch.patchedRow
    }
}
