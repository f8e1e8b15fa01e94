import Backgrounds
import Booth
import Import
import KernelIO

/// The rollback gesture (next and previous held together 5 s) on the box: the same switch as
/// `backdrop rollback`, in the data folder the running config comes from. The service runs
/// `--config DIR/current/backdrop.conf`, so DIR is the folder above `current`; a config read from
/// anywhere else has no generations to go back to. What happened comes back as the booth's
/// import inputs (the on-screen "ROLLED BACK" or why not), with the details in the log.
///
/// On the backdrop worker (`Task`), not the I/O thread: two symlink renames and their fsyncs (the
/// same as `backdrop rollback`; nothing is decoded or copied), but an fsync on an SD card that is
/// busy writing a photo can take hundreds of milliseconds, and the frames must go on meanwhile.
enum BoothRollback {
    /// The rollback as a job for `BackdropWorker`: `run` there; `outcome` is the worker's until the
    /// worker hands the task back through its phase (`BackdropWorker.take`), the I/O thread's after.
    final class Task: BackdropTask {
        let configPath: String
        private(set) var outcome: BoothInput? = nil

        init(configPath: String) { self.configPath = configPath }

        func run() { outcome = BoothRollback.run(configPath: configPath) }
    }

    /// Switches back; `.importFinished` when the previous generation is current, else `.importFailed`.
    static func run(configPath: String) -> BoothInput {
        guard let folder = dataFolder(ofConfig: configPath) else {
            Log.warning("rollback refused: \(configPath) is not DIR/current/backdrop.conf of a data folder")
            return .importFailed(reason: "NOT ROLLED BACK: CONFIG NOT FROM A DATA FOLDER")
        }
        do throws(SystemError) {
            let data = try DataFolder.open(folder)
            guard let switched = try data.rollback() else {
                Log.warning("rollback refused: \(folder) has no previous generation to go back to; nothing changed")
                return .importFailed(reason: "NOT ROLLED BACK: NO PREVIOUS SET")
            }
            Log.info("rollback: generation \(switched.to) is current again (was \(switched.from))")
            return .importFinished(summary: "ROLLED BACK")
        } catch {
            Log.warning("rollback of \(folder) failed: \(error.message); current is unchanged or whole")
            return .importFailed(reason: "NOT ROLLED BACK: SEE THE LOG")
        }
    }

    /// DIR for DIR/current/FILE, else nil.
    static func dataFolder(ofConfig path: String) -> String? {
        let generation = DurablePath.split(path).folder
        let above = DurablePath.split(generation)
        return above.name == "current" ? above.folder : nil
    }
}
