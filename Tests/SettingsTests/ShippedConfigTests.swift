import Foundation
import Testing
@testable import Settings

/// config/backdrop.conf is the documentation of every key; these tests keep it and the schema
/// from drifting apart.
@Suite struct ShippedConfigTests {
    /// config/backdrop.conf, found from this file's path (Tests/SettingsTests/ -> package root).
    static func shippedConfig() throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return try String(contentsOf: root.appendingPathComponent("config/backdrop.conf"), encoding: .utf8)
    }

    @Test func shippedConfigParsesToTheDefaults() throws {
        let result = Settings.parse(try Self.shippedConfig(), fileName: "backdrop.conf")
        #expect(result.problems == [])
        #expect(result.warnings == [])
        #expect(result.settings == Settings.defaults)
    }

    @Test func emptyFileYieldsTheDefaults() {
        let result = Settings.parse("", fileName: "backdrop.conf")
        #expect(result == .valid(Settings.defaults, warnings: []))
    }

    /// Each key appears in its section, set ("key = ") or shown commented out (";key = "), and the
    /// comment block above it (shared by keys listed together) states "Allowed: <what the parser allows>".
    @Test func everyKeyIsDocumentedWithWhatItAllows() throws {
        let lines = try Self.shippedConfig().split(separator: "\n", omittingEmptySubsequences: false)
            .map(String.init)
        for key in SettingsSchema.keys {
            var section = ""
            var found: Int? = nil
            for (index, line) in lines.enumerated() {
                if line.hasPrefix("[") { section = line }
                if section == "[\(key.section)]" && (line.hasPrefix("\(key.name) = ") || line.hasPrefix(";\(key.name) = ")) {
                    found = index
                }
            }
            guard let found else {
                Issue.record("[\(key.section)] \(key.name) is not in config/backdrop.conf")
                continue
            }
            var index = found - 1
            while index >= 0 && !lines[index].hasPrefix("#") { index -= 1 }
            var block = ""
            while index >= 0 && lines[index].hasPrefix("#") {
                block += lines[index] + "\n"
                index -= 1
            }
            #expect(block.contains("Allowed: \(key.allowed)"),
                    "[\(key.section)] \(key.name): comment does not say \"Allowed: \(key.allowed)\"")
            #expect(block.contains("Default"), "[\(key.section)] \(key.name): comment does not give the default")
        }
    }

    @Test func everySectionOfTheSchemaIsInTheFileInOrder() throws {
        let headers = try Self.shippedConfig().split(separator: "\n").filter { $0.hasPrefix("[") }
        #expect(headers.map(String.init) == SettingsSchema.sections.map { "[\($0)]" })
    }

    @Test func schemaHasNoDuplicateKeys() {
        var seen = Set<String>()
        for key in SettingsSchema.keys {
            #expect(seen.insert("\(key.section).\(key.name)").inserted, "\(key.section).\(key.name) twice")
            #expect(SettingsSchema.sections.contains(key.section))
        }
    }
}
