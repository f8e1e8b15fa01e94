import Testing

/// Parent of every suite that touches /dev/video*: they share vivid's and the loopback's nodes
/// (and one of them unplugs vivid), so they run one test at a time, never beside each other.
@Suite(.serialized) enum VideoHardware {}
