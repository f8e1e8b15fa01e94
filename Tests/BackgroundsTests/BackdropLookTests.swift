import Testing
@testable import Backgrounds
@_spi(Testing) import Frames
import Looks

/// The backdrop's look is applied when an image is decoded into a slot, once: the current view
/// after `setLook` is the plain one through the look, and `setLook(nil)` brings the plain back.
@Suite struct BackdropLookTests {
    @Test func setLookRedecodesWithTheLookApplied() throws {
        let size = FrameSize(width: 48, height: 32)
        let (library, _) = try BackgroundLibrary.load(directory: "/nonexistent-backdrops", outputSize: size, fit: .fill)
        func copy(_ view: ImageView) -> [UInt32] {
            var words: [UInt32] = []
            for y in 0..<size.height { for x in 0..<size.width { words.append(view.row(y).load(fromByteOffset: x * 4, as: UInt32.self)) } }
            return words
        }
        let plain = copy(library.current)
        let look = PreparedLook(BuiltInLooks.named("thermal")!)
        library.setLook(look)
        let looked = copy(library.current)
        var want = plain
        want.withUnsafeMutableBytes { look.colour!.apply(words: $0.baseAddress!, from: 0, to: plain.count) }
        #expect(looked == want)
        #expect(looked != plain)
        library.setLook(PreparedLook(Look(name: "people only", steps: [.invert], target: .people)))
        #expect(copy(library.current) == plain)
        library.setLook(nil)
        #expect(copy(library.current) == plain)
    }
}
