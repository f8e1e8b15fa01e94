import Frames
import KernelIO

/// Depth from a camera beside the colour camera, splatted into the colour camera's work grid:
/// each depth pixel (u, v) with depth z is the point z·d(u, v) − t in the colour camera's frame,
/// where the ray d(u, v) = column[u] + row[v] is the depth camera's ray rotated into colour axes
/// (the rotation's first two columns scaled by the ray's x and y, split so a frame does one add
/// per pixel), pre-multiplied by the work camera's focal lengths. A z-buffer keeps the nearest
/// sample per work pixel; then the one-pixel cracks that rounding leaves are closed.
///
/// The arithmetic is fixed, in this order, by `DepthReprojectionReference` (the plain form, one
/// pixel at a time); this form does the same operations eight lanes at a time (SIMD8: two NEON
/// registers on the board, one AVX register at x86-64-v3), and the scatter into the z-buffer,
/// which lanes cannot do without conflicts, lane by lane for the lanes that land. The test holds
/// the two byte for byte. Tables are allocated in `init`; `run` allocates nothing.
final class DepthReprojection {
    let depthSize: FrameSize
    let workSize: FrameSize
    /// Per depth column u: fx·(R·(rayX[u], 0, 1)).x, fy·(...).y and (...).z; per depth row v
    /// the same of R·(0, rayY[v], 0). Ray sums are then fx·dx, fy·dy, dz.
    let columnX, columnY, columnZ: UnsafeMutablePointer<Float>
    let rowX, rowY, rowZ: UnsafeMutablePointer<Float>
    /// fx·tx, fy·ty, tz; and the work camera's principal point plus half a pixel (so truncation
    /// picks the nearest pixel).
    let shiftX, shiftY, shiftZ: Float
    let centreX, centreY: Float
    private let memory: AlignedBuffer
    /// Tests: run the plain form instead (same bytes).
    var vectorised = true

    init(projection: DepthProjection, depthSize: FrameSize, workSize: FrameSize,
         workCamera: PinholeIntrinsics) throws(SystemError) {
        self.depthSize = depthSize
        self.workSize = workSize
        var layout = BufferLayout()
        // Eight spare columns: the lanes of a row's last chunk read past the width.
        let columns = depthSize.width + 8
        let slots = (0..<3).map { _ in layout.reserve(Float.self, count: columns) }
        let rowSlots = (0..<3).map { _ in layout.reserve(Float.self, count: depthSize.height) }
        memory = try AlignedBuffer(layout: layout)
        columnX = memory.pointer(slots[0]); columnY = memory.pointer(slots[1]); columnZ = memory.pointer(slots[2])
        rowX = memory.pointer(rowSlots[0]); rowY = memory.pointer(rowSlots[1]); rowZ = memory.pointer(rowSlots[2])
        let r = projection.rotation
        let fx = workCamera.fx, fy = workCamera.fy
        let depth = projection.depth
        for u in 0..<columns {
            let rayX = (Float(u) - depth.cx) / depth.fx
            columnX[u] = fx * (r.row0.x * rayX + r.row0.z)
            columnY[u] = fy * (r.row1.x * rayX + r.row1.z)
            columnZ[u] = r.row2.x * rayX + r.row2.z
        }
        for v in 0..<depthSize.height {
            let rayY = (Float(v) - depth.cy) / depth.fy
            rowX[v] = fx * (r.row0.y * rayY)
            rowY[v] = fy * (r.row1.y * rayY)
            rowZ[v] = r.row2.y * rayY
        }
        let t = projection.translationMM
        shiftX = fx * t.x
        shiftY = fy * t.y
        shiftZ = t.z
        centreX = workCamera.cx + 0.5
        centreY = workCamera.cy + 0.5
    }

    /// `source` rows of `stride` UInt16s at `depthSize`, raw × `unit` = mm; `target` the work
    /// grid (workSize, rows of its width), overwritten.
    func run(source: UnsafePointer<UInt16>, stride: Int, unit: Float, into target: UnsafeMutablePointer<UInt16>) {
        target.update(repeating: 0, count: workSize.pixelCount)
        if vectorised {
            splat(source: source, stride: stride, unit: unit, into: target)
        } else {
            DepthReprojectionReference.splat(self, source: source, stride: stride, unit: unit, into: target)
        }
        DepthReprojectionReference.closeCracks(target, size: workSize)
    }

    private func splat(source: UnsafePointer<UInt16>, stride: Int, unit: Float, into target: UnsafeMutablePointer<UInt16>) {
        let width = workSize.width
        let limitX = SIMD8<Float>(repeating: Float(width)), limitY = SIMD8<Float>(repeating: Float(workSize.height))
        let units = SIMD8<Float>(repeating: unit), inverseUnit = SIMD8<Float>(repeating: 1 / unit)
        let one = SIMD8<Float>(repeating: 1), half = SIMD8<Float>(repeating: 0.5), zero = SIMD8<Float>(repeating: 0)
        let shiftX = SIMD8<Float>(repeating: self.shiftX), shiftY = SIMD8<Float>(repeating: self.shiftY)
        let shiftZ = SIMD8<Float>(repeating: self.shiftZ)
        let centreX = SIMD8<Float>(repeating: self.centreX), centreY = SIMD8<Float>(repeating: self.centreY)
        let depthWidth = depthSize.width
        let columnX = UnsafeRawPointer(self.columnX), columnY = UnsafeRawPointer(self.columnY)
        let columnZ = UnsafeRawPointer(self.columnZ)
        for v in 0..<depthSize.height {
            let row = source + v * stride
            let rowX = SIMD8<Float>(repeating: self.rowX[v]), rowY = SIMD8<Float>(repeating: self.rowY[v])
            let rowZ = SIMD8<Float>(repeating: self.rowZ[v])
            var u = 0
            while u < depthWidth {
                let lanes = min(8, depthWidth - u)
                var raw = SIMD8<UInt16>(repeating: 0)
                if lanes == 8 {
                    raw = UnsafeRawPointer(row + u).loadUnaligned(as: SIMD8<UInt16>.self)
                } else {
                    for lane in 0..<lanes { raw[lane] = row[u + lane] }
                }
                // Holes come in runs (no reading off the subject's edges, out of range): skip
                // eight at once.
                if raw == SIMD8<UInt16>(repeating: 0) {
                    u += 8
                    continue
                }
                let z = SIMD8<Float>(SIMD8<Int32>(truncatingIfNeeded: raw)) * units
                let offset = u * MemoryLayout<Float>.stride
                let sumX = columnX.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self) + rowX
                let sumY = columnY.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self) + rowY
                let sumZ = columnZ.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self) + rowZ
                let depthZ = sumZ * z - shiftZ
                // Lanes behind the colour camera (or a hole's z of 0) get z 1 for the divide and
                // are masked out below.
                let usable = depthZ .> one
                let safeZ = depthZ.replacing(with: one, where: .!usable)
                let inverse = one / safeZ
                let px = (sumX * z - shiftX) * inverse + centreX
                let py = (sumY * z - shiftY) * inverse + centreY
                let lands = usable .& (px .>= zero) .& (py .>= zero) .& (px .< limitX) .& (py .< limitY)
                if !any(lands) {
                    u += 8
                    continue
                }
                let values = safeZ * inverseUnit + half
                for lane in 0..<lanes where lands[lane] {
                    let index = Int(py[lane]) * width + Int(px[lane])
                    let value = UInt16(Swift.min(65535, values[lane]))
                    let current = target[index]
                    if current == 0 || value < current { target[index] = value }
                }
                u += 8
            }
        }
    }
}
