@_spi(Testing) import Frames
import Glibc
import Testing
@testable import Scanout

/// Where the scanout buffers come from, on the board: libgbm serves vkms through Mesa's
/// kms_swrast (the host's libgl1-mesa-dri, which the x86_64 board sees over 9p; vboard/deps.sh
/// installs it), so the sink's buffers are GBM's; without Mesa's DRI drivers (the box, the arm64
/// board) they are dumb buffers and the start-up line says why. Part of KMSSinkDeviceTests so it
/// never runs beside another sink.
extension KMSSinkDeviceTests {
    /// What the CPU draws through the GBM buffers' one mapping is what the display shows (written
    /// back), frame after frame, every slot in turn.
    @Test func gbmBuffersHoldWhatTheDisplayShows() throws {
        do {
            let sink = try KMSSink(options: KMSSinkOptions(blend: .cpu, writeback: true))
            print("scanout (GBM): \(sink.summary)")
            try #require(sink.summary.contains(", 3 GBM buffers (linear scanout)"),
                         "libgbm did not serve the card (Mesa's DRI drivers: libgl1-mesa-dri, vboard/deps.sh)")
            try expectWrittenBackAsDrawn(sink)
        }
        // The overlay configuration's layers and backdrop come from libgbm too (once the first
        // sink is gone: the card has one master).
        let planes = try KMSSink(options: KMSSinkOptions(blend: .plane))
        #expect(planes.summary.contains(", 3 GBM buffers (linear scanout)"), "\(planes.summary)")
    }

    /// Mesa's drivers out of libgbm's reach (its search path pointed at a folder that does not
    /// exist, as on a box without libgl1-mesa-dri): gbm_create_device fails, the sink runs on
    /// dumb buffers, shows what was drawn, and says why not GBM.
    @Test func withoutMesaDriversTheSinkUsesDumbBuffersAndSaysWhy() throws {
        let variables = ["GBM_DRIVERS_PATH", "LIBGL_DRIVERS_PATH"]
        for name in variables { setenv(name, "/nonexistent/backdrop-no-dri", 1) }
        defer { for name in variables { unsetenv(name) } }
        let sink = try KMSSink(options: KMSSinkOptions(blend: .cpu, writeback: true))
        print("scanout (no Mesa): \(sink.summary)")
        #expect(sink.summary.contains(", 3 dumb buffers (GBM: no backend for \(sink.card.driver): gbm_create_device failed"),
                "\(sink.summary)")
        try expectWrittenBackAsDrawn(sink)
    }

    private func expectWrittenBackAsDrawn(_ sink: KMSSink) throws {
        let expected = PixelBuffer(format: .xrgb8888, size: sink.outputSize)
        for frame in 0..<2 * sink.slotCount {
            let slot = try #require((0..<sink.slotCount).first { sink.queue.isFree($0) })
            draw(sink.outputView(slot: slot), frame: frame)
            draw(expected.view, frame: frame)
            #expect(sink.armWriteback())
            #expect(sink.present(slot: slot, stamp: FrameStamp(nanoseconds: 0, sequence: UInt32(frame))) != nil,
                    "frame \(frame) was not flipped")
            let wrong = sink.withWriteback(timeoutMS: 5000) { shown in mismatches(shown, expected.view) }
            #expect(wrong == 0, "frame \(frame): \(wrong.map { "\($0) pixels differ" } ?? "no writeback")")
        }
    }
}
