/// One input format the box reads from files a user brings: each harness feeds the bytes through
/// the same entry point the product uses. A harness returns normally for every input, accepted or
/// refused; anything else (a trap, a sanitizer report) is the finding.
enum FuzzTarget: String, CaseIterable {
    /// backdrop.conf text through the Settings parser and validator (libinih underneath).
    case config
    /// A recording's recording.ini through its reader (a file, as `Recording.open` reads it).
    case recording
    /// An image file through the backdrop path: header and EXIF, the covering (DCT-scaled) decode,
    /// the prescale to the output; and as a recording frame (natural format, 16-bit depth too).
    case image
    /// A USB stick's tree (built from the input) through `StickImport` into a data folder.
    case `import`
    /// A .cube file and a looks file from a stick's backdrop/looks/ through their parsers, the
    /// fold and the apply.
    case looks
    /// A RealSense D4xx's calibration replies (GETINTCAL depth and colour tables, GET_ADV depth
    /// units) through the parser the live camera and `backdrop cameras --calibration-from` use.
    case calibration

    func run(_ bytes: UnsafeRawBufferPointer, scratch: ScratchFile) {
        switch self {
        case .config: ConfigHarness.run(bytes)
        case .recording: RecordingHarness.run(bytes, scratch: scratch)
        case .image: ImageHarness.run(bytes, scratch: scratch)
        case .import: ImportHarness.run(bytes, scratch: scratch)
        case .looks: LooksHarness.run(bytes)
        case .calibration: CalibrationHarness.run(bytes)
        }
    }
}
