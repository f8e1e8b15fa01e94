import Buttons
import Controls
import KernelIO
import Settings

/// `[buttons]` and board/<board>/buttons.conf turned into the panel the booth reads. A box whose
/// buttons cannot be opened still runs: nil, with a warning that says what to fix.
enum ButtonSetup {
    static func open(_ settings: ButtonSettings, boardDirectory: String?) -> ButtonControls? {
        var wiring = ButtonWiring()
        let boardFile = BoardDirectory.path(board: settings.board, file: "buttons.conf", override: boardDirectory)
        if let boardFile {
            do throws(SystemError) {
                let text = try WholeFile.text(boardFile)
                do throws(ButtonError) { wiring = try ButtonBoardFile.parse(text) } catch {
                    Log.warning("\(boardFile): \(error.message); buttons off")
                    return nil
                }
            } catch {
                Log.warning("cannot read \(boardFile): \(error.message); buttons off")
                return nil
            }
        }
        for (role, line) in [(ButtonRole.next, settings.next), (.previous, settings.previous), (.shutter, settings.shutter)] {
            guard let line else { continue }
            guard let address = ButtonLineAddress.parse(line) else {
                Log.warning("[buttons] \(role.name) = \(line): not a line name or chip:offset; buttons off")
                return nil
            }
            wiring.setLine(role, address)
        }
        do throws(ButtonError) {
            let panel = try ButtonPanel(wiring: wiring, debounceMS: settings.debounceMS)
            Log.info(panel.summary)
            return ButtonControls(panel: panel, longPressMS: settings.longPressMS)
        } catch {
            Log.warning("buttons off: \(error.message) (check [buttons] in the config and board/\(settings.board)/buttons.conf)")
            return nil
        }
    }
}
