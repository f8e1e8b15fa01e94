import Import
import KernelIO
import Runtime

/// `backdrop stick-released [--data DIR]`: the last word of a stick's visit for the booth's
/// screen, "YOU CAN REMOVE THE STICK", in DIR/unmount-outcome (`ImportNotice`, step
/// `unmounted`). A command of its own because only the unit knows when the stick is unmounted:
/// its ExecStopPost runs this after a successful umount, and only while the device is still
/// there (a stick pulled mid-import is already out; the import's or export's text says what that
/// cost), then sends the booth SIGHUP.
enum StickReleasedCommand {
    static func run(_ arguments: [String]) throws(CommandFailure) {
        let options = try CommandOptions.parse(arguments, valued: ["--data"], flags: [])
        _ = try options.positionals(0, names: "")
        let data = options.value("--data") ?? DataFolder.defaultPath
        do throws(SystemError) {
            let notice = try ImportNotice.write(ImportNotice.removableText, status: 0, data: data, step: .unmounted)
            StandardOutput.line("on screen: \(notice.text)")
        } catch {
            throw .runtime("cannot leave the stick's last notice in \(data): \(error.message)")
        }
    }
}
