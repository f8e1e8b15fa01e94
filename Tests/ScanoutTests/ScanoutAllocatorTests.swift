import Frames
import KernelIO
import Testing
@testable import Scanout

/// The start-up line's part about scanout buffers: which kind runs and, for dumb buffers, what
/// failed on the way to GBM ones and what would mend it.
@Suite struct ScanoutAllocatorTests {
    @Test func gbmBuffersSayTheyAreLinearScanout() {
        #expect(ScanoutAllocator.summary(count: 3, gbm: true, refusal: nil) == "3 GBM buffers (linear scanout)")
    }

    @Test func dumbBuffersSayWhyNotGBM() {
        let text = ScanoutAllocator.summary(count: 3, gbm: false, refusal: .noBackend(driver: "vkms"))
        #expect(text.hasPrefix("3 dumb buffers (GBM: no backend for vkms: gbm_create_device failed"))
        // What to install, for whoever reads the line on a box that could have GBM.
        #expect(text.contains("libgl1-mesa-dri"))
        #expect(text.hasSuffix(")"))
    }

    @Test func eachFailureNamesTheCallThatFailed() {
        let size = FrameSize(width: 1024, height: 768)
        #expect(GBMRefusal.create(format: "XRGB8888", size: size, .invalidArgument).message
            == "gbm_bo_create refused a 1024x768 XRGB8888 linear scanout buffer: \(Errno.invalidArgument.description)")
        #expect(GBMRefusal.map(.invalidArgument).message.hasPrefix("gbm_bo_map refused"))
        #expect(GBMRefusal.addFramebuffer(format: "ARGB8888", .invalidArgument).message
            .hasPrefix("the kernel refused a framebuffer (ARGB8888) on a GBM buffer"))
        let refused = ScanoutError.commitRejected("the mode 1024x768@60 (test)", .invalidArgument)
        #expect(ScanoutAllocator.summary(count: 2, gbm: false, refusal: .displayRefused(refused.message))
            == "2 dumb buffers (GBM: refused where dumb buffers pass (\(refused.message)))")
    }
}
