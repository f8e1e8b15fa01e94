import Testing
@testable import Settings

/// Every numeric key at its limits: the limits themselves are accepted and land in the right
/// field, one step outside is rejected with a message naming section, key, value and range.
@Suite struct KeyRangeTests {
    struct Limit: CustomTestStringConvertible, Sendable {
        var section: String
        var key: String
        var lowest: String
        var highest: String
        var belowLowest: String
        var aboveHighest: String
        /// Other keys of the section that keep the limit values free of contradictions.
        var context: String = ""
        var read: @Sendable (Settings) -> Double?

        var testDescription: String { "[\(section)] \(key)" }
    }

    static func integer(_ section: String, _ key: String, _ range: ClosedRange<Int>, context: String = "",
                        _ read: @escaping @Sendable (Settings) -> Int?) -> Limit {
        Limit(section: section, key: key, lowest: "\(range.lowerBound)", highest: "\(range.upperBound)",
              belowLowest: "\(range.lowerBound - 1)", aboveHighest: "\(range.upperBound + 1)", context: context,
              read: { settings in read(settings).map(Double.init) })
    }

    static func decimal(_ section: String, _ key: String, _ lowest: String, _ highest: String,
                        _ below: String, _ above: String, context: String = "",
                        _ read: @escaping @Sendable (Settings) -> Double?) -> Limit {
        Limit(section: section, key: key, lowest: lowest, highest: highest, belowLowest: below,
              aboveHighest: above, context: context, read: read)
    }

    static let depthSet = "depth_fx = 500\ndepth_fy = 500\ndepth_cx = 300\ndepth_cy = 200\n"
    static let colorSet = "color_fx = 500\ncolor_fy = 500\ncolor_cx = 300\ncolor_cy = 200\n"

    /// The ranges as the brief and config/backdrop.conf state them, written out independently of
    /// the schema so a changed range in the schema fails here.
    static let limits: [Limit] = [
        integer("matte", "near_mm", 0...9999, context: "far_mm = 10000\nsubject_max_mm = 10000") { $0.matte.nearMM },
        integer("matte", "far_mm", 100...10000, context: "near_mm = 0") { $0.matte.farMM },
        integer("matte", "margin_mm", 0...5000) { $0.matte.marginMM },
        integer("matte", "subject_max_mm", 100...10000, context: "near_mm = 0") { $0.matte.subjectMaximumMM },
        integer("matte", "hysteresis_mm", 0...1000) { $0.matte.hysteresisMM },
        integer("matte", "region_percent", 10...100) { $0.matte.regionPercent },
        integer("matte", "min_blob_px", 0...100_000) { $0.matte.minimumBlobPixels },
        integer("matte", "feather_px", 0...32) { $0.matte.featherPixels },
        integer("matte", "temporal_percent", 0...95) { $0.matte.temporalPercent },
        integer("camera", "width", 16...8192) { $0.camera.size.width },
        integer("camera", "height", 16...8192) { $0.camera.size.height },
        integer("camera", "fps", 1...240) { $0.camera.fps },
        decimal("camera", "depth_unit_mm", "0.001", "100", "0.0009", "100.001") { $0.camera.depthUnitMM },
        decimal("camera", "depth_fx", "1", "100000", "0.999", "100000.5",
                context: "depth_fy = 500\ndepth_cx = 300\ndepth_cy = 200") { $0.camera.depthIntrinsics.map { Double($0.fx) } },
        decimal("camera", "depth_fy", "1", "100000", "0.5", "100001",
                context: "depth_fx = 500\ndepth_cx = 300\ndepth_cy = 200") { $0.camera.depthIntrinsics.map { Double($0.fy) } },
        decimal("camera", "depth_cx", "0", "16384", "-0.1", "16384.1",
                context: "depth_fx = 500\ndepth_fy = 500\ndepth_cy = 200") { $0.camera.depthIntrinsics.map { Double($0.cx) } },
        decimal("camera", "depth_cy", "0", "16384", "-1", "16385",
                context: "depth_fx = 500\ndepth_fy = 500\ndepth_cx = 300") { $0.camera.depthIntrinsics.map { Double($0.cy) } },
        decimal("camera", "color_fx", "1", "100000", "0.999", "100000.5",
                context: "color_fy = 500\ncolor_cx = 300\ncolor_cy = 200") { $0.camera.colorIntrinsics.map { Double($0.fx) } },
        decimal("camera", "color_fy", "1", "100000", "0", "100001",
                context: "color_fx = 500\ncolor_cx = 300\ncolor_cy = 200") { $0.camera.colorIntrinsics.map { Double($0.fy) } },
        decimal("camera", "color_cx", "0", "16384", "-0.001", "16384.001",
                context: "color_fx = 500\ncolor_fy = 500\ncolor_cy = 200") { $0.camera.colorIntrinsics.map { Double($0.cx) } },
        decimal("camera", "color_cy", "0", "16384", "-1", "20000",
                context: "color_fx = 500\ncolor_fy = 500\ncolor_cx = 300") { $0.camera.colorIntrinsics.map { Double($0.cy) } },
        decimal("camera", "tx_mm", "-1000", "1000", "-1000.5", "1000.5") { $0.camera.depthToColor.xMM },
        decimal("camera", "ty_mm", "-1000", "1000", "-1001", "1001") { $0.camera.depthToColor.yMM },
        decimal("camera", "tz_mm", "-1000.0", "1000.0", "-1000.01", "1000.01") { $0.camera.depthToColor.zMM },
        integer("sync", "tolerance_ms", 0...1000) { $0.sync.toleranceMS },
        integer("output", "width", 16...8192) { $0.output.size.width },
        integer("output", "height", 16...8192) { $0.output.size.height },
        integer("pipeline", "workers", 1...16) { $0.pipeline.workers },
        integer("pipeline", "io_cpu", -1...63) { $0.pipeline.ioCPU ?? -1 },
        integer("pipeline", "realtime_priority", 1...99, context: "realtime = true") { $0.pipeline.realtimePriority },
        integer("buttons", "debounce_ms", 0...1000, context: "long_press_ms = 2000") { $0.buttons.debounceMS },
        integer("buttons", "long_press_ms", 100...10000) { $0.buttons.longPressMS },
        integer("photos", "countdown_s", 0...10) { $0.photos.countdownSeconds },
    ]

    static func parse(_ limit: Limit, _ value: String) -> SettingsParse {
        Settings.parse("[\(limit.section)]\n\(limit.context)\n\(limit.key) = \(value)\n", fileName: "backdrop.conf")
    }

    @Test(arguments: limits) func limitsAreAcceptedAndStored(_ limit: Limit) throws {
        for value in [limit.lowest, limit.highest] {
            let result = Self.parse(limit, value)
            #expect(result.problems == [], "\(limit.key) = \(value)")
            let settings = try #require(result.settings)
            #expect(limit.read(settings) == ValueSyntax.decimal(value), "\(limit.key) = \(value) not stored")
        }
    }

    @Test(arguments: limits) func oneStepOutsideIsRejected(_ limit: Limit) {
        for value in [limit.belowLowest, limit.aboveHighest] {
            let result = Self.parse(limit, value)
            #expect(result.settings == nil, "\(limit.key) = \(value) accepted")
            let expected = "[\(limit.section)] \(limit.key) = \(value): out of range, allowed "
            #expect(result.problems.contains { $0.contains(expected) }, "\(result.problems)")
        }
    }

    @Test func everyNumericKeyOfTheSchemaIsCovered() {
        for key in SettingsSchema.keys {
            switch key.kind {
            case .integer, .decimal:
                #expect(Self.limits.contains { $0.section == key.section && $0.key == key.name },
                        "[\(key.section)] \(key.name) has no range test")
            default:
                break
            }
        }
    }

    @Test func rangeMessageNamesFileSectionKeyValueAndUnit() {
        let result = Settings.parse("[matte]\nfar_mm = 50000\n", fileName: "backdrop.conf")
        #expect(result.problems == ["backdrop.conf:2: [matte] far_mm = 50000: out of range, allowed 100..10000 (millimetres)"])
    }
}
