@_spi(Testing) import Frames
import Foundation
@testable import Matte
import MatteReference
@_spi(Testing) import Scenes
import Testing

/// The depth kernels against their plain reference forms (MatteReference, written for reading and
/// independently of them): the temporal blend's lanes (MatteEngine.blendTowardMask) against
/// TemporalReference, the segmenter (DepthSegments, whose break and vertical-join tests run in
/// lanes against an integer bound) against SegmentsReference, and the labeller (RunLabeller, on
/// runs) against LabellerReference. On random inputs of many sizes and strides made to sit on
/// the edges of their rules (join tolerances, hole contacts, blob sizes), and on whole scenes
/// played through the engine, where every frame's classes, mask and smoothed alpha are compared
/// with the references run on the engine's own inputs to each stage.
@Suite struct DepthKernelIdentityTests {
    /// A small deterministic generator (the tests must fail the same way every run).
    struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    }

    static let sizes = [(1, 1), (1, 9), (9, 1), (2, 2), (7, 5), (8, 8), (9, 3), (15, 11), (16, 16), (17, 13),
                        (31, 7), (33, 20), (64, 48), (101, 37), (160, 120)]

    static func mismatch(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, count: Int) -> Int? {
        for i in 0..<count where a[i] != b[i] { return i }
        return nil
    }

    @Test func temporalBlendMatchesItsReference() {
        var random = Random(state: 9)
        for (width, height) in Self.sizes {
            for round in 0..<4 {
                let stride = width + round
                var depth = [UInt16](repeating: 0, count: stride * height)
                var previous = [UInt16](repeating: 0, count: width * height)
                var mask = [UInt8](repeating: 0, count: width * height)
                var soft = [UInt8](repeating: 0, count: width * height)
                for y in 0..<height {
                    for x in 0..<width {
                        let p = UInt16(random.below(4000))
                        previous[y * width + x] = p
                        // Mostly steady depth, some moved a little or a lot; all four corners of
                        // the 3x3 test reached.
                        let change = [0, 0, 0, 10, 200, 3000][random.below(6)]
                        depth[y * stride + x] = UInt16(min(65535, max(0, Int(p) + (random.below(2) == 0 ? change : -change))))
                        let m: UInt8 = random.below(2) == 0 ? 255 : 0
                        mask[y * width + x] = m
                        soft[y * width + x] = random.below(3) == 0 ? UInt8(random.below(256)) : m
                    }
                }
                if round == 3 {
                    for i in soft.indices { soft[i] = 255 &- mask[i] }
                }
                var expected = soft
                let keep = [256, 13, 128, 256 - 95 * 256 / 100][round]
                let base = [1, 20, 5, 1000][round]
                TemporalReference.blend(mask: mask, soft: &expected, depth: depth, stride: stride, previous: previous,
                                        width: width, height: height, keep: keep, base: base)
                MatteEngine.blendTowardMask(mask: mask, soft: &soft, depth: depth, stride: stride, previous: previous,
                                            width: width, height: height, keep: keep, base: base)
                #expect(soft == expected, "\(width)x\(height) round \(round)")
            }
        }
    }

    /// Rows of surfaces whose neighbour steps straddle the join tolerance (which grows with
    /// depth, and passes 65535 near the far end at unit 1), holes, floor and foot-zone patches,
    /// and rows that repeat the row above with noise so that vertical joins and contacts happen.
    @Test func segmenterMatchesItsReference() throws {
        var random = Random(state: 23)
        for (width, height) in Self.sizes + [(640, 48), (203, 97)] {
            for round in 0..<4 {
                let unit: Float = [1, 1, 0.25, 4][round]
                let stride = width + round
                let segments = try DepthSegments(width: width, height: height)
                var depth = [UInt16](repeating: 0, count: stride * height)
                var marks = [UInt8](repeating: 0, count: width * height)
                for y in 0..<height {
                    var x = 0
                    while x < width {
                        let length = 1 + random.below(min(width, 40))
                        let far = round == 1 ? 30_000 + random.below(35_000) : 300 + random.below(9000)
                        let noise = 1 + [5, 40, 150, 1500][random.below(4)]
                        let slope = random.below(3) == 0 ? random.below(60) : 0
                        let kind = random.below(12)
                        let mark: UInt8 = random.below(6) == 0 ? UInt8(1 + random.below(2)) : 0
                        for i in x..<min(width, x + length) {
                            let value: Int
                            if y > 0 && kind < 5 {
                                let above = Int(depth[(y - 1) * stride + i])
                                value = above == 0 ? far : above + random.below(noise) - noise / 2
                            } else if kind == 5 {
                                value = 0
                            } else {
                                value = far + (i - x) * slope + random.below(noise) - noise / 2
                            }
                            depth[y * stride + i] = UInt16(min(65535, max(random.below(20) == 0 ? 0 : 1, value)))
                            marks[y * width + i] = mark
                        }
                        x += length
                    }
                }
                for i in 0..<(width * height) { segments.floor[i] = marks[i] }
                var classes = [UInt8](repeating: 9, count: width * height)
                let near: UInt16 = round == 1 ? 20_000 : 400
                let far: UInt16 = round == 1 ? 65_000 : UInt16(Float(3200) / unit)
                let minimum = [1, 4, 30, 200][random.below(4)]
                // Every other round also takes the copy of the depth the temporal stage keeps.
                var copy = [UInt16](repeating: 7, count: width * height)
                let done = depth.withUnsafeBufferPointer { d in
                    copy.withUnsafeMutableBufferPointer { c in
                        segments.segment(depth: d.baseAddress!, stride: stride, unit: unit, near: near, far: far,
                                         minimumPixels: minimum, pixelWidthMM: 1.7, into: &classes,
                                         copy: round % 2 == 0 ? c.baseAddress! : nil)
                    }
                }
                var packed = [UInt16](repeating: 0, count: width * height)
                for y in 0..<height { for x in 0..<width { packed[y * width + x] = depth[y * stride + x] } }
                let reference = SegmentsReference.segment(depth: packed, floor: marks, width: width, height: height,
                                                          unit: unit, near: near, far: far, minimumPixels: minimum,
                                                          pixelWidthMM: 1.7, feet: true, capacity: segments.capacity)
                #expect(done == (reference != nil), "\(width)x\(height) round \(round)")
                // A frame with too many runs leaves the classes (and the copy) partly written
                // for the caller's fallback: only a finished segmentation is compared.
                guard done, let reference else { continue }
                Self.expectSameRegions(segments, reference, "\(width)x\(height) round \(round)")
                let at = Self.mismatch(classes, reference.classes, count: width * height)
                #expect(at == nil, "\(width)x\(height) round \(round): classes differ first at \(at ?? -1)")
                // The labeller passing over the segmenter's runs (the floor's feet grown between
                // them) labels as it does reading every byte.
                let labeller = try RunLabeller(width: width, height: height)
                var mask = [UInt8](repeating: 7, count: width * height)
                var maskRead = [UInt8](repeating: 9, count: width * height)
                let labelled = labeller.label(classes: classes, paintedBy: segments, minimumBlob: minimum, into: &mask)
                let runsPassed = labeller.count
                let labelledRead = labeller.label(classes: classes, minimumBlob: minimum, into: &maskRead)
                #expect(labelled == labelledRead && runsPassed == labeller.count,
                        "\(width)x\(height) round \(round): \(runsPassed) runs passed over, \(labeller.count) read")
                let maskAt = Self.mismatch(mask, maskRead, count: width * height)
                #expect(maskAt == nil, "\(width)x\(height) round \(round): masks differ first at \(maskAt ?? -1)")
                if labelled, let labelledReference = LabellerReference.label(classes: classes, width: width, height: height,
                                                                             minimumBlob: minimum, capacity: labeller.capacity) {
                    let referenceAt = Self.mismatch(mask, labelledReference, count: width * height)
                    #expect(referenceAt == nil,
                            "\(width)x\(height) round \(round): the mask differs from the reference first at \(referenceAt ?? -1)")
                } else {
                    #expect(!labelled, "\(width)x\(height) round \(round): labelled where the reference found too many runs")
                }
                if round % 2 == 0 {
                    var copyDiffers = 0
                    for y in 0..<height {
                        for x in 0..<width where copy[y * width + x] != depth[y * stride + x] { copyDiffers += 1 }
                    }
                    #expect(copyDiffers == 0, "\(width)x\(height) round \(round): \(copyDiffers) copied readings differ")
                }
            }
        }
    }

    /// Class maps of runs of background, hole and foreground, rows mostly repeating the row
    /// above (so components span rows and touch the border or not), of many sizes.
    @Test func labellerMatchesItsReference() throws {
        var random = Random(state: 31)
        for (width, height) in Self.sizes + [(640, 48), (203, 97)] {
            for round in 0..<3 {
                let labeller = try RunLabeller(width: width, height: height)
                var classes = [UInt8](repeating: 0, count: width * height)
                for y in 0..<height {
                    var x = 0
                    while x < width {
                        let length = 1 + random.below(min(width, [3, 12, 60][round]))
                        let kind = UInt8(random.below(3))
                        let copy = y > 0 && random.below(4) != 0
                        for i in x..<min(width, x + length) {
                            classes[y * width + i] = copy ? classes[(y - 1) * width + i] : kind
                        }
                        x += length
                    }
                }
                let minimum = [1, 6, 40][round]
                var mask = [UInt8](repeating: 7, count: width * height)
                let done = labeller.label(classes: classes, minimumBlob: minimum, into: &mask)
                let expected = LabellerReference.label(classes: classes, width: width, height: height,
                                                       minimumBlob: minimum, capacity: labeller.capacity)
                #expect(done == (expected != nil), "\(width)x\(height) round \(round)")
                guard done, let expected else { continue }
                let at = Self.mismatch(mask, expected, count: width * height)
                #expect(at == nil, "\(width)x\(height) round \(round): masks differ first at \(at ?? -1)")
            }
        }
    }

    /// Frames of one to three rows or columns, many of them: where the frame's edges are most of
    /// a hole's contacts (the top and bottom edges of a one-row frame count once, not twice).
    @Test func labellerMatchesItsReferenceOnTinyFrames() throws {
        var random = Random(state: 57)
        var filledHoles = 0
        for round in 0..<400 {
            let (width, height) = random.below(2) == 0 ? (1 + random.below(12), 1 + random.below(3))
                                                       : (1 + random.below(3), 1 + random.below(12))
            let labeller = try RunLabeller(width: width, height: height)
            let classes = (0..<(width * height)).map { _ in UInt8(random.below(3)) }
            let minimum = random.below(3)
            var mask = [UInt8](repeating: 7, count: width * height)
            let done = labeller.label(classes: classes, minimumBlob: minimum, into: &mask)
            let expected = LabellerReference.label(classes: classes, width: width, height: height,
                                                   minimumBlob: minimum, capacity: labeller.capacity)
            #expect(done == (expected != nil), "\(width)x\(height) round \(round)")
            guard done, let expected else { continue }
            #expect(mask == expected, "\(width)x\(height) round \(round): \(classes) -> \(mask), reference \(expected)")
            for i in classes.indices where classes[i] == LabellerReference.hole && mask[i] == 255 { filledHoles += 1 }
        }
        // Not vacuous: holes were filled as well as left.
        #expect(filledHoles > 20)
    }

    // MARK: whole scenes

    /// The references run beside an engine on the same frames: the segmenter's on the work depth,
    /// floor marks and band the engine segmented with, the labeller's on the engine's classes,
    /// the blend's on the engine's mask and work depth with its own temporal state.
    final class StageReference {
        let width: Int
        let height: Int
        var mask: [UInt8]
        var soft: [UInt8]
        var previousDepth: [UInt16]
        var hasPrevious = false
        var previousUnit: Float = 0
        var frames = 0
        /// Frames the engine segmented and labelled (the rest were too noisy: per-pixel fallback).
        var segmentedFrames = 0
        var labelledFrames = 0

        init(size: FrameSize) throws {
            width = size.width
            height = size.height
            mask = [UInt8](repeating: 0, count: size.pixelCount)
            soft = mask
            previousDepth = [UInt16](repeating: 0, count: size.pixelCount)
        }

        func check(_ engine: MatteEngine, _ what: String) {
            let parameters = engine.parameters
            guard let work = engine.lastWork else {
                Issue.record("\(what): the engine recorded no work")
                return
            }
            let count = width * height
            var depth = [UInt16](repeating: 0, count: count)
            for y in 0..<height {
                for x in 0..<width { depth[y * width + x] = work.depth[y * work.stride + x] }
            }
            let classes = Array(UnsafeBufferPointer(start: engine.classesPlane, count: count))
            if work.segmented {
                let floor = Array(UnsafeBufferPointer(start: engine.floorMarks, count: count))
                let segmented = SegmentsReference.segment(depth: depth, floor: floor, width: width, height: height,
                                                          unit: work.unit, near: work.regionNear, far: work.regionFar,
                                                          minimumPixels: parameters.minimumBlobPixels,
                                                          pixelWidthMM: work.pixelWidthMM, feet: work.feet,
                                                          capacity: engine.segmentCapacity)
                if let segmented {
                    let at = DepthKernelIdentityTests.mismatch(classes, segmented.classes, count: count)
                    #expect(at == nil, "\(what): classes differ from the segmenter's reference first at \(at ?? -1)")
                    segmentedFrames += 1
                } else {
                    Issue.record("\(what): segmented where the reference found too many runs")
                }
            }
            if work.labelled {
                if let labelled = LabellerReference.label(classes: classes, width: width, height: height,
                                                          minimumBlob: parameters.minimumBlobPixels,
                                                          capacity: engine.runCapacity) {
                    let at = DepthKernelIdentityTests.mismatch(engine.maskPlane, labelled, count: count)
                    #expect(at == nil, "\(what): mask differs from the labeller's reference first at \(at ?? -1)")
                    labelledFrames += 1
                } else {
                    Issue.record("\(what): labelled where the reference found too many runs")
                }
            }
            for i in 0..<count { mask[i] = engine.maskPlane[i] }
            let weight = min(95, max(0, parameters.temporalPercent))
            if hasPrevious && weight > 0 && previousUnit == work.unit {
                TemporalReference.blend(mask: mask, soft: &soft, depth: depth, stride: width,
                                        previous: previousDepth, width: width, height: height,
                                        keep: 256 - weight * 256 / 100, base: max(1, min(1000, Int(20 / work.unit))))
            } else {
                soft = mask
            }
            previousDepth = depth
            hasPrevious = true
            previousUnit = work.unit
            let softAt = DepthKernelIdentityTests.mismatch(engine.softPlane, soft, count: count)
            #expect(softAt == nil, "\(what): smoothed alpha differs first at \(softAt ?? -1)")
            frames += 1
        }
    }

    static func fixed() -> MatteParameters {
        var parameters = MatteParameters()
        parameters.mode = .fixed
        parameters.farMM = 3200
        return parameters
    }

    @Test(arguments: [false, true])
    func theSyntheticSceneMatchesStageForStage(fixedBand: Bool) throws {
        let scene = SyntheticScene(seed: 7, colourSize: FrameSize(width: 640, height: 480))
        let engine = try MatteEngine(parameters: fixedBand ? Self.fixed() : MatteParameters(),
                                     depthSize: scene.depthSize, alphaSize: scene.colourSize)
        let reference = try StageReference(size: engine.workSize)
        let colour = PixelBuffer(format: .yuyv, size: scene.colourSize)
        let depth = PixelBuffer(format: .z16, size: scene.depthSize)
        let alpha = PixelBuffer(format: .alpha8, size: scene.colourSize)
        for frame in 0..<12 {
            scene.render(frame: frame, color: colour.view, depth: depth.view, truth: nil)
            engine.process(depth: depth.view, unitMM: 1, colour: colour.view, into: alpha.view)
            reference.check(engine, "synthetic frame \(frame)")
        }
        #expect(reference.frames == 12)
        #expect(reference.segmentedFrames > 0 && reference.labelledFrames > 0)
    }

    @Test(arguments: [false, true])
    func theGroupSceneMatchesStageForStage(fixedBand: Bool) throws {
        let scene = GroupScene(colourSize: FrameSize(width: 320, height: 240))
        let engine = try MatteEngine(parameters: fixedBand ? Self.fixed() : MatteParameters(),
                                     depthSize: scene.depthSize, alphaSize: scene.colourSize)
        let reference = try StageReference(size: engine.workSize)
        let colour = PixelBuffer(format: .rgb24, size: scene.colourSize)
        let depth = PixelBuffer(format: .z16, size: scene.depthSize)
        let alpha = PixelBuffer(format: .alpha8, size: scene.colourSize)
        for frame in 0..<10 {
            scene.render(frame: frame, color: colour.view, depth: depth.view, truth: nil)
            engine.process(depth: depth.view, unitMM: 1, colour: colour.view, into: alpha.view)
            reference.check(engine, "group frame \(frame)")
        }
        #expect(reference.frames == 10)
        #expect(reference.segmentedFrames > 0 && reference.labelledFrames > 0)
    }

    /// Reprojected depth: the work grid is the engine's own plane, not the camera's.
    @Test func theUnregisteredGroupMatchesStageForStage() throws {
        let scene = GroupScene.unregistered(colourSize: FrameSize(width: 320, height: 240))
        let projection = DepthProjection(depth: scene.depthCamera, colour: scene.colourCamera,
                                         translationMM: scene.colourOffsetMM)
        let engine = try MatteEngine(parameters: MatteParameters(), depthSize: scene.depthSize,
                                     alphaSize: scene.colourSize, projection: projection)
        let reference = try StageReference(size: engine.workSize)
        let colour = PixelBuffer(format: .rgb24, size: scene.colourSize)
        let depth = PixelBuffer(format: .z16, size: scene.depthSize)
        let alpha = PixelBuffer(format: .alpha8, size: scene.colourSize)
        for frame in 0..<6 {
            scene.render(frame: frame, color: colour.view, depth: depth.view, truth: nil)
            engine.process(depth: depth.view, unitMM: 1, colour: colour.view, into: alpha.view)
            reference.check(engine, "unregistered frame \(frame)")
        }
        #expect(reference.frames == 6)
        #expect(reference.segmentedFrames > 0 && reference.labelledFrames > 0)
    }

    @Test(.enabled(if: KinectFrameTests.available, "needs ../shared/data/rgbd/pcl_five_people (real Kinect frame); not present"))
    func theKinectFrameMatchesStageForStage() throws {
        let png = try #require(GreyPNG(path: KinectFrameTests.folder + "/depth/000000.png"))
        let size = FrameSize(width: png.width, height: png.height)
        let depth = PixelBuffer(format: .z16, size: size)
        for y in 0..<png.height {
            let row = depth.row(y).assumingMemoryBound(to: UInt16.self)
            for x in 0..<png.width { row[x] = png.samples[y * png.width + x] }
        }
        let engine = try MatteEngine(parameters: MatteParameters(), depthSize: size, alphaSize: size)
        let reference = try StageReference(size: engine.workSize)
        let alpha = PixelBuffer(format: .alpha8, size: size)
        for frame in 0..<4 {
            // The frame shifted a little each time, so the temporal blend has work to do.
            if frame > 0 {
                for y in 0..<png.height {
                    let row = depth.row(y).assumingMemoryBound(to: UInt16.self)
                    for x in 0..<png.width { row[x] = png.samples[y * png.width + min(png.width - 1, x + frame * 2)] }
                }
            }
            engine.process(depth: depth.view, unitMM: 1, into: alpha.view)
            reference.check(engine, "kinect frame \(frame)")
        }
        #expect(reference.frames == 4)
        #expect(reference.segmentedFrames > 0 && reference.labelledFrames > 0)
    }
}

extension DepthKernelIdentityTests {
    /// The segmenter's runs, regions and region contacts are the reference's: the same runs in
    /// the same order, each run's region the same partition (a region's root is its first run,
    /// the reference numbers regions by their first run), each root's contacts its region's.
    static func expectSameRegions(_ segments: DepthSegments, _ reference: SegmentsReference.Result, _ what: String) {
        let painted = segments.paintedRuns
        #expect(segments.count == reference.runs.count, "\(what): \(segments.count) runs, the reference \(reference.runs.count)")
        guard segments.count == reference.runs.count else { return }
        var firstRunOfRegion = [Int](repeating: -1, count: reference.regions.count)
        var differing = 0
        for (i, run) in reference.runs.enumerated() {
            let y = Int(painted.rowFirst[run.y]) <= i && i < Int(painted.rowFirst[run.y + 1])
            if !y || Int(painted.start[i]) != run.start || Int(painted.end[i]) != run.end { differing += 1; continue }
            let region = reference.regionOfRun[i]
            if firstRunOfRegion[region] < 0 { firstRunOfRegion[region] = i }
            if Int(painted.root[i]) != firstRunOfRegion[region] { differing += 1; continue }
            if Int(painted.root[i]) == i {
                let expected = reference.regions[region]
                if Int(segments.nearerContacts[i]) != expected.nearerAcross
                    || Int(segments.fartherContacts[i]) != expected.fartherAcross
                    || (painted.keep[i] != 0) != expected.kept {
                    differing += 1
                }
            }
        }
        #expect(differing == 0, "\(what): \(differing) runs differ from the reference (place, region, contacts or kept)")
    }
}
