import Testing
@testable import Runtime

/// The environment's hooks, read once in `main`: what each variable turns on, and that a real
/// box (none set) runs with every hook off.
@Suite struct RuntimeOptionsTests {
    @Test func noVariableMeansEveryHookOff() {
        let options = RuntimeOptions.fromVariables { _ in nil }
        #expect(options.boardDirectory == nil)
        #expect(!options.refuseScaling)
        #expect(options.photoRenameDelayMS == nil)
        #expect(options.importNoticeNanoseconds == nil)
        #expect(options.displayAwayFile == nil)
    }

    @Test func eachVariableSetsItsHook() {
        let variables = ["BACKDROP_BOARD_DIR": "/tmp/board", "BACKDROP_TEST_REFUSE_SCALING": "1",
                         "BACKDROP_TEST_RENAME_DELAY_MS": "60000", "BACKDROP_TEST_IMPORT_NOTICE_S": "3600",
                         "BACKDROP_TEST_DISPLAY_AWAY_FILE": "/tmp/away"]
        let options = RuntimeOptions.fromVariables { variables[$0] }
        #expect(options.boardDirectory == "/tmp/board")
        #expect(options.refuseScaling)
        #expect(options.photoRenameDelayMS == 60000)
        #expect(options.importNoticeNanoseconds == 3_600_000_000_000)
        #expect(options.displayAwayFile == "/tmp/away")
    }

    @Test func malformedValuesLeaveTheirHookOff() {
        let variables = ["BACKDROP_TEST_RENAME_DELAY_MS": "soon", "BACKDROP_TEST_IMPORT_NOTICE_S": "3601",
                         "BACKDROP_TEST_DISPLAY_AWAY_FILE": ""]
        let options = RuntimeOptions.fromVariables { variables[$0] }
        #expect(options.photoRenameDelayMS == nil)
        #expect(options.importNoticeNanoseconds == nil)
        #expect(options.displayAwayFile == nil)
        let zero = RuntimeOptions.fromVariables { $0 == "BACKDROP_TEST_IMPORT_NOTICE_S" ? "0" : nil }
        #expect(zero.importNoticeNanoseconds == nil)
    }
}
