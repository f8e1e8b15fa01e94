import Frames
import KernelIO
import Testing
@testable import Scanout

/// The start-up choice between a display-scaled layer, an output-sized layer and CPU frames, with
/// a fake driver in place of the TEST_ONLY commit.
@Suite struct LayerPlanTests {
    let scaled = ScaledLayer(size: FrameSize(width: 640, height: 480),
                             source: PlaneRect(x: 0, y: 60, width: 640, height: 360),
                             target: PlaneRect(x: 0, y: 0, width: 1920, height: 1080))
    let refusal = ScanoutError.commitRejected("the scaled overlay-plane configuration", .invalidArgument)

    @Test func aDriverThatScalesRunsTheScaledLayer() {
        var tried: [LayerPlan] = []
        let decision = LayerPlan.choose(LayerPlan.candidates(blend: .auto, overlay: true, scaled: scaled), why: "") { plan in
            tried.append(plan)
            return nil
        }
        #expect(decision.plan == .scaledPlane(scaled))
        #expect(tried == [.scaledPlane(scaled)], "nothing else is tried once the best is accepted")
        #expect(decision.reason.contains("the display scales the camera layer"))
        #expect(decision.reason.contains("640x360+0+60 onto 1920x1080+0+0"))
    }

    @Test func aDriverThatRefusesScalingGetsTheOutputSizedLayerAndSaysWhy() {
        let decision = LayerPlan.choose(LayerPlan.candidates(blend: .auto, overlay: true, scaled: scaled), why: "") { plan in
            if case .scaledPlane = plan { return refusal }
            return nil
        }
        #expect(decision.plan == .plane)
        #expect(decision.reason.hasPrefix("the CPU scales the camera layer, the display blends it"))
        #expect(decision.reason.contains("a scaled overlay refused (display refused the scaled overlay-plane configuration"))
    }

    @Test func aDriverThatRefusesEveryOverlayGetsCPUFrames() {
        var tried: [LayerPlan] = []
        let decision = LayerPlan.choose(LayerPlan.candidates(blend: .auto, overlay: true, scaled: scaled), why: "") { plan in
            tried.append(plan)
            return plan == .cpu ? nil : refusal
        }
        #expect(decision.plan == .cpu)
        #expect(tried == [.scaledPlane(scaled), .plane, .cpu])
        #expect(decision.reason.contains("a scaled overlay refused"))
        #expect(decision.reason.contains("an output-sized overlay refused"))
    }

    @Test func planeAskedForAndRefusedIsAnErrorNotCPUFrames() {
        let decision = LayerPlan.choose(LayerPlan.candidates(blend: .plane, overlay: true, scaled: scaled), why: "") { _ in refusal }
        #expect(decision.plan == nil)
        #expect(decision.refusal == refusal)
    }

    @Test func cpuAskedForOrNoOverlayTriesOnlyCPUFramesAndSaysWhy() {
        #expect(LayerPlan.candidates(blend: .cpu, overlay: true, scaled: scaled) == [.cpu])
        #expect(LayerPlan.candidates(blend: .auto, overlay: false, scaled: scaled) == [.cpu])
        #expect(LayerPlan.candidates(blend: .plane, overlay: false, scaled: scaled) == [])
        #expect(LayerPlan.candidates(blend: .auto, overlay: true, scaled: nil) == [.plane, .cpu])
        let decision = LayerPlan.choose([.cpu], why: "[output] blend = cpu") { _ in nil }
        #expect(decision.reason == "the CPU composes whole frames: [output] blend = cpu")
    }
}
