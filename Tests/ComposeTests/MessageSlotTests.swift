import Compose
import Foundation
import Testing

@Suite struct MessageSlotTests {
    @Test func emptyBeforeTheFirstPublish() {
        let slot = MessageSlot()
        #expect(slot.take().isEmpty)
        #expect(slot.generation == 0)
    }

    @Test func takeReturnsTheNewestPublishedText() {
        let slot = MessageSlot()
        slot.publish("PHOTO SAVED")
        #expect(slot.take().text == "PHOTO SAVED")
        #expect(slot.take().style == .caption)
        slot.publish("3", style: .countdown)
        slot.publish("2", style: .countdown)
        let view = slot.take()
        #expect(view.text == "2" && view.style == .countdown)
        #expect(slot.generation == 3)
    }

    @Test func takingAgainWithoutAPublishKeepsTheText() {
        let slot = MessageSlot()
        slot.publish("CAMERA DISCONNECTED")
        _ = slot.take()
        #expect(slot.take().text == "CAMERA DISCONNECTED")
    }

    @Test func clearEmptiesIt() {
        let slot = MessageSlot()
        slot.publish("beach")
        _ = slot.take()
        slot.clear()
        #expect(slot.take().isEmpty)
    }

    @Test func nonPrintableBytesAreEscaped() {
        let slot = MessageSlot()
        slot.publish("bell\u{7}\nnew")
        #expect(slot.take().text == "bell\\x07\\x0Anew")
        slot.publish("café.jpg")
        #expect(slot.take().text == "caf\\xC3\\xA9.jpg")
        slot.publish("Reading USB stick\u{2026}")
        #expect(slot.take().text == "Reading USB stick...")
        let invalid: [UInt8] = [0x61, 0xFF, 0x62]
        invalid.withUnsafeBufferPointer { slot.publish(bytes: $0) }
        #expect(slot.take().text == "a\\xFFb")
    }

    @Test func tooLongATextIsCutAtAWholePieceWithAnEllipsis() {
        let slot = MessageSlot()
        let long = String(repeating: "A", count: MessageSlot.capacity + 10)
        slot.publish(long)
        let text = slot.take().text
        #expect(text.utf8.count == MessageSlot.capacity)
        #expect(text.hasSuffix("...") && text.hasPrefix("AAAA"))
        // An escape is never cut in half: 19 escapes of 4 bytes are 76; the 20th does not fit before "...".
        slot.publish(String(repeating: "\u{1}", count: 30))
        let escaped = slot.take().text
        #expect(escaped == String(repeating: "\\x01", count: 19) + "...")
        // Exactly the capacity is kept whole.
        slot.publish(String(repeating: "B", count: MessageSlot.capacity))
        #expect(slot.take().text == String(repeating: "B", count: MessageSlot.capacity))
    }

    /// One writer publishing as fast as it can, one reader taking: every text read is one that
    /// was published whole (never a mix of two), texts never go back in time, and the last one
    /// arrives.
    @Test func aReaderNeverSeesATornText() {
        let slot = MessageSlot()
        let count = 20_000
        // "index/index/filler": the filler's length and letter also follow from the index.
        @Sendable func text(_ index: Int) -> String {
            "\(index)/\(index)/" + String(repeating: Character(Unicode.Scalar(UInt8(65 + index % 26))), count: index % 40)
        }
        let writer = Thread {
            for index in 1...count { slot.publish(text(index)) }
        }
        writer.start()
        var previous = 0
        var bad: [String] = []
        var seen = 0
        while true {
            let finished = slot.generation == UInt64(count)
            let view = slot.take()
            if !view.isEmpty {
                seen += 1
                let parts = view.text.split(separator: "/", omittingEmptySubsequences: false)
                if let index = Int(parts[0]), view.text == text(index), index >= previous {
                    previous = index
                } else {
                    bad.append(view.text)
                }
            }
            if finished { break }
        }
        #expect(bad.isEmpty, "torn or out-of-order texts: \(bad.prefix(3))")
        #expect(seen > 0)
        #expect(slot.take().text == text(count))
    }
}
