import Photos
import Testing

@Suite struct PhotoNameTests {
    @Test func namesCarryTheSequenceAndTheBootTimeFixedWidth() {
        #expect(PhotoName.name(sequence: 42, bootNanoseconds: 123_456_789_000) == "photo-00000042-0000123456.jpg")
        #expect(PhotoName.name(sequence: 1, bootNanoseconds: 0, part: .colour) == "photo-00000001-0000000000-colour.png")
        #expect(PhotoName.name(sequence: 1, bootNanoseconds: 0, part: .alpha) == "photo-00000001-0000000000-alpha.png")
        #expect(PhotoName.name(sequence: 1, bootNanoseconds: 0, part: .depth) == "photo-00000001-0000000000-depth.png")
    }

    @Test func sequenceIsReadBackFromPhotoNamesOnly() {
        #expect(PhotoName.sequence(of: "photo-00000042-0000123456.jpg") == 42)
        #expect(PhotoName.sequence(of: "photo-00000007-0000000001-depth.png") == 7)
        #expect(PhotoName.sequence(of: ".photo-00000099-0000000001.jpg.partial") == nil)
        #expect(PhotoName.sequence(of: "photo-42-1.jpg") == nil)
        #expect(PhotoName.sequence(of: "photo-0000004x-0000000001.jpg") == nil)
        #expect(PhotoName.sequence(of: "holiday.jpg") == nil)
        #expect(PhotoName.highestSequence(in: ["a.jpg", "photo-00000003-0000000009.jpg", "photo-00000011-0000000001.jpg",
                                               ".photo-00000050-0000000001.jpg.partial"]) == 11)
        #expect(PhotoName.highestSequence(in: [String]()) == 0)
    }

    /// After a reboot the boot clock restarts near zero; the sequence keeps the order.
    @Test func namesSortInTheOrderTakenAcrossReboots() {
        let beforeReboot = [PhotoName.name(sequence: 9, bootNanoseconds: 900_000_000_000),
                            PhotoName.name(sequence: 10, bootNanoseconds: 950_000_000_000)]
        let afterReboot = [PhotoName.name(sequence: 11, bootNanoseconds: 4_000_000_000),
                           PhotoName.name(sequence: 12, bootNanoseconds: 5_000_000_000)]
        let taken = beforeReboot + afterReboot
        #expect(taken.sorted() == taken)
    }
}
