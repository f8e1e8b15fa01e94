import Frames

/// The plain form of `DepthReprojection`: one depth pixel at a time, the same operations in the
/// same order, so the two agree byte for byte (DepthReprojectionTests). Read this one to know what
/// the reprojection does.
enum DepthReprojectionReference {
    static func splat(_ p: DepthReprojection, source: UnsafePointer<UInt16>, stride: Int, unit: Float,
                      into target: UnsafeMutablePointer<UInt16>) {
        let width = p.workSize.width, height = p.workSize.height
        for v in 0..<p.depthSize.height {
            for u in 0..<p.depthSize.width {
                let raw = source[v * stride + u]
                if raw == 0 { continue }
                let z = Float(raw) * unit
                // The ray rotated into colour axes (focal lengths folded in), times z, less the
                // colour camera's offset: the point in the colour camera's frame.
                let x = (p.columnX[u] + p.rowX[v]) * z - p.shiftX
                let y = (p.columnY[u] + p.rowY[v]) * z - p.shiftY
                let depthZ = (p.columnZ[u] + p.rowZ[v]) * z - p.shiftZ
                if !(depthZ > 1) { continue }
                let inverse = 1 / depthZ
                let px = x * inverse + p.centreX
                let py = y * inverse + p.centreY
                // The nearest work pixel (ties to even): inside the grid from −0.5 to size − 0.5.
                if !(px >= -0.5 && py >= -0.5 && px < Float(width) - 0.5 && py < Float(height) - 0.5) { continue }
                let index = Int(py.rounded(.toNearestOrEven)) * width + Int(px.rounded(.toNearestOrEven))
                let value = UInt16(min(65535, depthZ * (1 / unit)).rounded(.toNearestOrEven))
                let current = target[index]
                if current == 0 || value < current { target[index] = value }
            }
        }
    }

    /// A gap with samples on both sides (along the row, then the column) takes the farther one:
    /// at a subject's edge a crack is more likely background showing through than subject.
    static func closeCracks(_ grid: UnsafeMutablePointer<UInt16>, size: FrameSize) {
        let width = size.width, height = size.height
        for y in 0..<height {
            let row = grid + y * width
            if width > 2 {
                for x in 1..<(width - 1) where row[x] == 0 && row[x - 1] != 0 && row[x + 1] != 0 {
                    row[x] = max(row[x - 1], row[x + 1])
                }
            }
        }
        if height > 2 {
            for y in 1..<(height - 1) {
                let row = grid + y * width
                for x in 0..<width where row[x] == 0 && row[x - width] != 0 && row[x + width] != 0 {
                    row[x] = max(row[x - width], row[x + width])
                }
            }
        }
    }
}
