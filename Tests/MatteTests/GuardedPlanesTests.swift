@_spi(Testing) import Frames
import Foundation
import KernelIO
@testable import Matte
@_spi(Testing) import Scenes
import Testing

/// The guarded layout (KernelIO's GuardedPlanes: every plane against its own guard page) on the
/// matte: the kernels stay inside their planes, slack included, on every scene and size here
/// (a store past a plane would stop this process with SIGSEGV), and give the same bytes as in
/// the packed layout; and an overrun planted one byte past a plane is caught, in a child
/// process, as SIGSEGV (or, in the sanitizer stage's ASan build, as ASan's report and its
/// failing exit), while the same byte in the packed layout lands silently in the next plane.
/// The sanitizer stage (mk/sanitize.mk) builds with the guard on for every test.
@Suite(.serialized) struct GuardedPlanesTests {
    /// Makes `body`'s engines with the guard on, then puts the switch back.
    static func guarded<T>(_ body: () throws -> T) rethrows -> T {
        let was = GuardedPlanes.enabled
        GuardedPlanes.enabled = true
        defer { GuardedPlanes.enabled = was }
        return try body()
    }

    static func packed<T>(_ body: () throws -> T) rethrows -> T {
        let was = GuardedPlanes.enabled
        GuardedPlanes.enabled = false
        defer { GuardedPlanes.enabled = was }
        return try body()
    }

    /// Alphas and rim patch sizes of `frames` frames through a fresh engine.
    static func run(scene: (Int, ImageView, ImageView) -> Void, colourFormat: PixelFormat, colourSize: FrameSize,
                    depthSize: FrameSize, projection: DepthProjection?, parameters: MatteParameters,
                    frames: Int, guardedLayout: Bool) throws -> ([UInt8], [Int]) {
        let make = {
            try MatteEngine(parameters: parameters, depthSize: depthSize, alphaSize: colourSize, projection: projection)
        }
        let engine = guardedLayout ? try guarded(make) : try packed(make)
        let colour = PixelBuffer(format: colourFormat, size: colourSize)
        let depth = PixelBuffer(format: .z16, size: depthSize)
        let alpha = PixelBuffer(format: .alpha8, size: colourSize)
        var alphas: [UInt8] = []
        var rims: [Int] = []
        for frame in 0..<frames {
            scene(frame, colour.view, depth.view)
            engine.process(depth: depth.view, unitMM: 1, colour: frame % 3 == 2 ? nil : colour.view, into: alpha.view)
            engine.decontaminate(colour: colour.view, alpha: alpha.view)
            for y in 0..<colourSize.height {
                let row = alpha.view.row(y).assumingMemoryBound(to: UInt8.self)
                for x in 0..<colourSize.width { alphas.append(row[x]) }
            }
            rims.append(engine.rimPixelCount)
        }
        return (alphas, rims)
    }

    static func fixed() -> MatteParameters {
        var parameters = MatteParameters()
        parameters.mode = .fixed
        parameters.farMM = 3200
        parameters.featherPixels = 5
        return parameters
    }

    @Test(arguments: [(640, 480, PixelFormat.yuyv), (321, 239, .rgb24), (17, 9, .rgb24), (64, 48, .nv12)])
    func syntheticSceneStaysInsideItsPlanes(width: Int, height: Int, format: PixelFormat) throws {
        let size = FrameSize(width: width, height: height)
        let scene = SyntheticScene(seed: 5, colourSize: size)
        for parameters in [MatteParameters(), Self.fixed()] {
            let render = { (frame: Int, colour: ImageView, depth: ImageView) in
                scene.render(frame: frame, color: colour, depth: depth, truth: nil)
            }
            let packed = try Self.run(scene: render, colourFormat: format, colourSize: size, depthSize: scene.depthSize,
                                      projection: nil, parameters: parameters, frames: 6, guardedLayout: false)
            let guarded = try Self.run(scene: render, colourFormat: format, colourSize: size, depthSize: scene.depthSize,
                                       projection: nil, parameters: parameters, frames: 6, guardedLayout: true)
            #expect(guarded.0 == packed.0 && guarded.1 == packed.1, "\(size) \(format): the guarded layout changed the matte")
        }
    }

    @Test(arguments: [false, true])
    func groupScenesStayInsideTheirPlanes(unregistered: Bool) throws {
        let size = FrameSize(width: 320, height: 240)
        let scene = unregistered ? GroupScene.unregistered(colourSize: size) : GroupScene(colourSize: size)
        let projection = unregistered
            ? DepthProjection(depth: scene.depthCamera, colour: scene.colourCamera, translationMM: scene.colourOffsetMM) : nil
        let render = { (frame: Int, colour: ImageView, depth: ImageView) in
            scene.render(frame: frame, color: colour, depth: depth, truth: nil)
        }
        let packed = try Self.run(scene: render, colourFormat: .rgb24, colourSize: size, depthSize: scene.depthSize,
                                  projection: projection, parameters: MatteParameters(), frames: 6, guardedLayout: false)
        let guarded = try Self.run(scene: render, colourFormat: .rgb24, colourSize: size, depthSize: scene.depthSize,
                                   projection: projection, parameters: MatteParameters(), frames: 6, guardedLayout: true)
        #expect(guarded.0 == packed.0 && guarded.1 == packed.1, "the guarded layout changed the group's matte")
        #expect(packed.1.contains { $0 > 0 }, "the rim stage ran on something")
    }

    /// How a child that stored one byte past the mask plane (with its slack: the plane's whole
    /// slot) ended: nil when it exited 0.
    static func plantOverrun(guardedLayout: Bool) throws -> String? {
        let size = FrameSize(width: 64, height: 48)
        let scene = SyntheticScene(seed: 5, colourSize: size)
        let make = { try MatteEngine(parameters: MatteParameters(), depthSize: scene.depthSize, alphaSize: size) }
        let engine = guardedLayout ? try guarded(make) : try packed(make)
        let colour = PixelBuffer(format: .yuyv, size: size)
        let depth = PixelBuffer(format: .z16, size: scene.depthSize)
        let alpha = PixelBuffer(format: .alpha8, size: size)
        scene.render(frame: 0, color: colour.view, depth: depth.view, truth: nil)
        engine.process(depth: depth.view, unitMM: 1, colour: colour.view, into: alpha.view)
        // The mask's slot is its pixels and 16 bytes of slack (MatteEngine.init).
        let pastTheMask = UnsafeMutablePointer(mutating: engine.maskPlane) + engine.workSize.pixelCount + 16
        // The child does nothing but the store and its exit: no allocation, no lock, after fork.
        let child = fork()
        if child == 0 {
            pastTheMask.pointee = 0x5A
            _exit(0)
        }
        try #require(child > 0, "fork failed")
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0 && errno == EINTR {}
        let signal = status & 0x7F
        let code = (status >> 8) & 0xFF
        withExtendedLifetime(engine) {}
        if signal == 0 { return code == 0 ? nil : "exit \(code)" }
        return signal == SIGSEGV ? "SIGSEGV" : "signal \(signal)"
    }

    @Test func aOneByteOverrunPastAPlaneIsCaught() throws {
        let sanitized = ProcessInfo.processInfo.environment["BACKDROP_SANITIZED"] == "1"
        let guardedEnd = try Self.plantOverrun(guardedLayout: true)
        // ASan turns the SIGSEGV into its report (on stderr, above) and exit 1.
        #expect(guardedEnd == "SIGSEGV" || (sanitized && guardedEnd == "exit 1"),
                "the store past the guarded mask plane ended the child with \(guardedEnd ?? "exit 0")")
        let packedEnd = try Self.plantOverrun(guardedLayout: false)
        #expect(packedEnd == nil, "in the packed layout the same store lands in the next plane unseen: \(packedEnd ?? "")")
    }
}
