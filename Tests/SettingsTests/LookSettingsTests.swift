import Testing
@testable import Settings

@Suite struct LookSettingsTests {
    static func parse(_ text: String) -> SettingsParse { Settings.parse(text, fileName: "backdrop.conf") }

    @Test func cycleStartAndDirectoryRead() {
        let result = Self.parse("[looks]\ncycle = none, sepia ,my-film_2\nstart = sepia\ndirectory = /data/looks\n")
        #expect(result.problems.isEmpty && result.warnings.isEmpty)
        #expect(result.settings?.looks.cycle == ["none", "sepia", "my-film_2"])
        #expect(result.settings?.looks.start == "sepia")
        #expect(result.settings?.looks.directory == "/data/looks")
    }

    @Test func defaultsCycleIncludesTheStart() {
        let looks = LookSettings()
        #expect(looks.cycle.contains(looks.start))
    }

    @Test(arguments: [("cycle = none,,sepia", "empty entry"), ("cycle = none, sepia, none", "none listed twice"),
                      ("cycle = sepia, bad/name", "is not a look name"), ("start = two words", "not a look name")])
    func badValuesAreProblems(_ line: String, _ reason: String) {
        let result = Self.parse("[looks]\n" + line + "\n")
        #expect(result.settings == nil)
        #expect(result.problems.count == 1 && result.problems[0].contains(reason), "\(result.problems)")
        #expect(result.problems.first?.hasPrefix("backdrop.conf:2: [looks]") == true)
    }

    @Test func startOutsideTheCycleIsAWarning() {
        let result = Self.parse("[looks]\ncycle = none, mono\nstart = thermal\n")
        #expect(result.settings?.looks.start == "thermal")
        #expect(result.warnings.count == 1 && result.warnings[0].contains("[looks] start = thermal is not in cycle"))
    }
}
