import Frames

/// Where a sink's scanout buffers come from, decided per card: libgbm's linear scanout buffers
/// while libgbm serves the card (gbm_create_device succeeds, buffer objects can be made and
/// mapped, and the display accepts them at TEST_ONLY), dumb buffers otherwise. Once GBM fails
/// on a card it stays off, and `refusal` says why for the start-up line.
///
/// Threading: the sink's thread only, during set-up.
final class ScanoutAllocator {
    private let card: KMSCard
    /// Dropped at the first failure; buffers already made hold it until they go.
    private var device: GBMDevice?
    private(set) var refusal: GBMRefusal?
    /// Set while `attempt` tries dumb buffers for a configuration GBM buffers failed.
    private var dumbTrial = false

    init(card: KMSCard) {
        self.card = card
        device = GBMDevice(card: card)
        if device == nil { refusal = .noBackend(driver: card.driver) }
    }

    /// A buffer from libgbm while it serves this card, a dumb buffer otherwise. A libgbm failure
    /// turns GBM off (the reason kept) and throws, so the caller's `attempt` starts over.
    func make(_ format: PixelFormat, _ size: FrameSize) throws(ScanoutError) -> ScanoutBuffer {
        if let device, !dumbTrial {
            do throws(GBMRefusal) { return .gbm(try GBMBuffer(device: device, format: format, size: size)) } catch {
                refuse(error)
                throw .unsupported("GBM: \(error.message)")
            }
        }
        return .dumb(try DumbBuffer(card: card, format: format, size: size))
    }

    /// Runs `body` (which makes its buffers with `make` and tests them); when it fails with GBM
    /// buffers, runs it again with dumb ones, which tells a GBM failure from a configuration the
    /// display refuses anyway: only when the dumb buffers pass does GBM go off for the display's
    /// refusal. Throws the dumb attempt's error when both fail.
    func attempt(_ body: () throws(ScanoutError) -> Void) throws(ScanoutError) {
        guard device != nil else { return try body() }
        let failure: ScanoutError
        do throws(ScanoutError) { return try body() } catch { failure = error }
        dumbTrial = true
        defer { dumbTrial = false }
        try body()
        if device != nil { refuse(.displayRefused(failure.message)) }
    }

    /// "3 GBM buffers (linear scanout)", or "3 dumb buffers (GBM: why not)": the part of the
    /// start-up line saying which buffers the display shows.
    static func summary(count: Int, gbm: Bool, refusal: GBMRefusal?) -> String {
        if gbm { return "\(count) GBM buffers (linear scanout)" }
        return "\(count) dumb buffers" + (refusal.map { " (GBM: \($0.message))" } ?? "")
    }

    private func refuse(_ why: GBMRefusal) {
        device = nil
        refusal = why
    }
}
