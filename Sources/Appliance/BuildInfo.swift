import Runtime
import CBuildInfo

/// `backdrop --version`: the revision and date baked in at build time (CBuildInfo).
enum BuildInfo {
    static var line: String {
        "backdrop revision \(String(cString: bk_build_revision())), built \(String(cString: bk_build_date()))"
    }
}
