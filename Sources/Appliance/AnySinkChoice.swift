import Runtime
import Sinks

/// The file and null sinks `[output] sink` can name, as one value so the generic pipeline is
/// specialised per sink (Embedded Swift has no existentials of non-class protocols).
enum AnySinkChoice {
    case null(NullSink)
    case y4m(Y4MFileSink)
    case png(PNGSequenceSink)
}
