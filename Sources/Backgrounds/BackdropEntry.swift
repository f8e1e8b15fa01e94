/// What the library knows about a backdrop that is not decoded: its name and where its pixels
/// come from. A few hundred bytes each, so a folder of 64 costs nothing until shown.
struct BackdropEntry {
    enum Origin {
        /// A file checked at load time (it decoded); decoded again when it is about to be shown.
        case file(path: String)
        /// The generated gradient (no usable file).
        case builtIn
        /// One of the scenes the project draws itself (`backdrop demo` without a folder).
        case generated(GeneratedBackdrop)
    }

    let name: String
    let origin: Origin
}
