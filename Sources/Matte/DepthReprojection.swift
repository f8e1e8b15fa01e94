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
///
/// On the board the lane form first cost more than the plain loop (31.3 M arm64 instructions a
/// frame at 848x480 against 33.4 M with the crack closing): the lane-by-lane scatter converted
/// each landing lane's floats with trap checks and spilled the vectors per lane. So the pixel
/// index and the value are made in integer lanes (rounding by adding 1.5·2^23, which leaves
/// the integer in the low mantissa bits: no conversion, no trap), lanes that do not land write to a
/// spare slot after the grid, and the eight stores are unrolled and branch-free.
///
/// Measured (make bench-arm64-count, arm64 instructions per frame, D435 calibration): depth
/// 848x480 -> colour 1280x720 -> 1920x1080, registration 33.4 M (scalar loop) -> 12.9 M (splat
/// 10.8 + cracks 2.1), the matte around it 14.4 M; 640x480 -> 640x480, 25.0 M -> 9.6 M. Still
/// about half the matte's instructions, twice the 25 % budget: the scatter's eight stores and the
/// divide are what is left.
final class DepthReprojection {
    let depthSize: FrameSize
    let workSize: FrameSize
    /// Per depth column u: fx·(R·(rayX[u], 0, 1)).x, fy·(...).y and (...).z; per depth row v
    /// the same of R·(0, rayY[v], 0). Ray sums are then fx·dx, fy·dy, dz.
    let columnX, columnY, columnZ: UnsafeMutablePointer<Float>
    let rowX, rowY, rowZ: UnsafeMutablePointer<Float>
    /// fx·tx, fy·ty, tz; and the work camera's principal point.
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
        centreX = workCamera.cx
        centreY = workCamera.cy
    }

    /// `source` rows of `stride` UInt16s at `depthSize`, raw × `unit` = mm; `target` the work
    /// grid (workSize, rows of its width), overwritten, plus one spare element after it that
    /// lanes landing nowhere write to.
    func run(source: UnsafePointer<UInt16>, stride: Int, unit: Float, into target: UnsafeMutablePointer<UInt16>) {
        target.update(repeating: 0, count: workSize.pixelCount)
        if vectorised {
            splat(source: source, stride: stride, unit: unit, into: target)
        } else {
            DepthReprojectionReference.splat(self, source: source, stride: stride, unit: unit, into: target)
        }
        if vectorised {
            closeCracks(target)
        } else {
            DepthReprojectionReference.closeCracks(target, size: workSize)
        }
    }

    /// The reference's crack closing eight pixels at a time. Lanes read the values before this
    /// pass wrote: the same result, because a pixel is filled only between two samples, so its
    /// filled neighbour was never a gap itself.
    private func closeCracks(_ grid: UnsafeMutablePointer<UInt16>) {
        let width = workSize.width, height = workSize.height
        let zero = SIMD8<UInt16>(repeating: 0)
        @inline(__always) func fill(_ at: UnsafeMutablePointer<UInt16>, _ before: UnsafeMutablePointer<UInt16>,
                                    _ after: UnsafeMutablePointer<UInt16>) {
            let centre = UnsafeRawPointer(at).loadUnaligned(as: SIMD8<UInt16>.self)
            let left = UnsafeRawPointer(before).loadUnaligned(as: SIMD8<UInt16>.self)
            let right = UnsafeRawPointer(after).loadUnaligned(as: SIMD8<UInt16>.self)
            let gap = (centre .== zero) .& (left .!= zero) .& (right .!= zero)
            if any(gap) {
                UnsafeMutableRawPointer(at).storeBytes(of: centre.replacing(with: pointwiseMax(left, right), where: gap),
                                                       as: SIMD8<UInt16>.self)
            }
        }
        if width > 2 {
            for y in 0..<height {
                let row = grid + y * width
                var x = 1
                while x + 8 <= width - 1 {
                    fill(row + x, row + x - 1, row + x + 1)
                    x += 8
                }
                while x < width - 1 {
                    if row[x] == 0 && row[x - 1] != 0 && row[x + 1] != 0 { row[x] = max(row[x - 1], row[x + 1]) }
                    x += 1
                }
            }
        }
        if height > 2 {
            for y in 1..<(height - 1) {
                let row = grid + y * width
                var x = 0
                while x + 8 <= width {
                    fill(row + x, row + x - width, row + x + width)
                    x += 8
                }
                while x < width {
                    if row[x] == 0 && row[x - width] != 0 && row[x + width] != 0 { row[x] = max(row[x - width], row[x + width]) }
                    x += 1
                }
            }
        }
    }

    private func splat(source: UnsafePointer<UInt16>, stride: Int, unit: Float, into target: UnsafeMutablePointer<UInt16>) {
        let width = workSize.width
        let limitX = SIMD8<Float>(repeating: Float(width) - 0.5), limitY = SIMD8<Float>(repeating: Float(workSize.height) - 0.5)
        let units = SIMD8<Float>(repeating: unit), inverseUnit = SIMD8<Float>(repeating: 1 / unit)
        let one = SIMD8<Float>(repeating: 1), zero = SIMD8<Float>(repeating: 0), minus = SIMD8<Float>(repeating: -0.5)
        let most = SIMD8<Float>(repeating: 65535)
        // 1.5·2^23: the sum of it and any -2^22 <= x < 2^22 lies where floats are whole numbers,
        // so the add rounds x to the nearest (ties to even) and leaves it in the low bits. (2^23
        // alone would not do for -0.5 <= x < 0: the sum falls below 2^23, where halves remain.)
        let magic = SIMD8<Float>(repeating: 12_582_912), magicBits = SIMD8<Int32>(repeating: 0x4B40_0000)
        let widths = SIMD8<Int32>(repeating: Int32(workSize.width))
        let spare = SIMD8<Int32>(repeating: Int32(workSize.pixelCount))
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
                // z > 0: a hole's lane (or one past the row's end) lands nowhere whatever the offset.
                let lands = usable .& (z .> zero) .& (px .>= minus) .& (py .>= minus) .& (px .< limitX) .& (py .< limitY)
                if !any(lands) {
                    u += 8
                    continue
                }
                let column = unsafeBitCast(px.replacing(with: zero, where: .!lands) + magic, to: SIMD8<Int32>.self) &- magicBits
                let line = unsafeBitCast(py.replacing(with: zero, where: .!lands) + magic, to: SIMD8<Int32>.self) &- magicBits
                let index = (line &* widths &+ column).replacing(with: spare, where: .!lands)
                // Not pointwiseMin: the Embedded build leaves it a generic call per chunk (2.3 M
                // arm64 instructions a frame at 848x480).
                let raw16 = safeZ * inverseUnit
                let value = unsafeBitCast(raw16.replacing(with: most, where: raw16 .> most) + magic,
                                          to: SIMD8<Int32>.self) &- magicBits
                @inline(__always) func put(_ index: Int32, _ value: Int32) {
                    let slot = target + Int(index)
                    let new = UInt16(truncatingIfNeeded: value), current = slot.pointee
                    // current 0 (nothing yet) wraps to 65535: any value is nearer.
                    slot.pointee = new <= current &- 1 ? new : current
                }
                put(index[0], value[0]); put(index[1], value[1]); put(index[2], value[2]); put(index[3], value[3])
                put(index[4], value[4]); put(index[5], value[5]); put(index[6], value[6]); put(index[7], value[7])
                u += 8
            }
        }
    }
}
