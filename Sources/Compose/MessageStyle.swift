/// How the message layer draws a text: as a caption in the band near the bottom edge, or as the
/// countdown's large digits in the same band.
public enum MessageStyle: UInt8, Equatable, Sendable {
    case caption
    case countdown
}
