import CGBM

/// libgbm's device on the card's fd, the allocator of GBM scanout buffers. Owns the gbm_device
/// (destroyed in `deinit`, which leaves the fd open); holds the card, whose fd must outlive it.
/// Every `GBMBuffer` holds its device, so the device outlives its buffer objects.
///
/// Mesa's libgbm serves a card through the DRI driver for it (or kms_swrast for any KMS card),
/// loaded here from Debian's libgl1-mesa-dri: where none is installed, there is no device.
final class GBMDevice {
    let card: KMSCard
    let raw: OpaquePointer

    /// nil when libgbm has no backend for the card (gbm_create_device failed).
    init?(card: KMSCard) {
        guard let raw = gbm_create_device(card.fd) else { return nil }
        self.card = card
        self.raw = raw
    }

    deinit { gbm_device_destroy(raw) }
}
