import Frames
import Matte

/// Every key of backdrop.conf in one table: section, name, what it accepts, where it goes.
/// Defaults live on the settings structs; config/backdrop.conf documents both (a test checks
/// that every key here appears there with its allowed values).
public enum SettingsSchema {
    public static let sections = [
        "matte", "background", "camera", "sync", "output", "pipeline", "buttons", "photos", "looks",
    ]

    public static let keys: [SettingKey] = [
        SettingKey("matte", "mode", .choice(MatteParameters.Mode.self) { $0.settings.matte.mode = $1 }),
        SettingKey("matte", "near_mm", .integer(0...9999, unit: "millimetres") { $0.settings.matte.nearMM = $1 }),
        SettingKey("matte", "far_mm", .integer(100...10000, unit: "millimetres") { $0.settings.matte.farMM = $1 }),
        SettingKey("matte", "margin_mm", .integer(0...5000, unit: "millimetres") { $0.settings.matte.marginMM = $1 }),
        SettingKey("matte", "subject_max_mm",
                   .integer(100...10000, unit: "millimetres") { $0.settings.matte.subjectMaximumMM = $1 }),
        SettingKey("matte", "hysteresis_mm",
                   .integer(0...1000, unit: "millimetres") { $0.settings.matte.hysteresisMM = $1 }),
        SettingKey("matte", "region_percent",
                   .integer(10...100, unit: "percent") { $0.settings.matte.regionPercent = $1 }),
        SettingKey("matte", "min_blob_px",
                   .integer(0...100_000, unit: "depth pixels") { $0.settings.matte.minimumBlobPixels = $1 }),
        SettingKey("matte", "feather_px", .integer(0...32, unit: "pixels") { $0.settings.matte.featherPixels = $1 }),
        SettingKey("matte", "temporal_percent",
                   .integer(0...95, unit: "percent") { $0.settings.matte.temporalPercent = $1 }),

        SettingKey("background", "fit", .choice(FitMode.self) { $0.settings.background.fit = $1 }),
        SettingKey("background", "directory", .path { $0.settings.background.directory = $1 }),

        SettingKey("camera", "source", .choice(CameraSettings.Source.self) { $0.settings.camera.source = $1 }),
        SettingKey("camera", "recording", .path { $0.settings.camera.recording = $1 }),
        SettingKey("camera", "color_device", .device { $0.settings.camera.colorDevice = $1 }),
        SettingKey("camera", "depth_device", .device { $0.settings.camera.depthDevice = $1 }),
        SettingKey("camera", "depth_size", .sizeOrAuto { $0.settings.camera.depthSize = $1 }),
        SettingKey("camera", "color_size", .sizeOrAuto { $0.settings.camera.colorSize = $1 }),
        SettingKey("camera", "width", .integer(16...8192, unit: "pixels") { $0.settings.camera.size.width = $1 }),
        SettingKey("camera", "height", .integer(16...8192, unit: "pixels") { $0.settings.camera.size.height = $1 }),
        SettingKey("camera", "fps", .integer(1...240, unit: "frames per second") { $0.settings.camera.fps = $1 }),
        SettingKey("camera", "color_format",
                   .choice(CameraSettings.ColorFormat.self) { $0.settings.camera.colorFormat = $1 }),
        SettingKey("camera", "depth_unit_mm",
                   .decimal(0.001...100, unit: "millimetres per depth unit") {
                       $0.settings.camera.depthUnitMM = $1
                       $0.settings.camera.depthUnitTyped = true
                   }),
        SettingKey("camera", "registered", .oneOf(["auto", "true", "false", "yes", "no", "on", "off", "1", "0"]) {
            $0.settings.camera.registration = $1 == "auto" ? .auto : ["true", "yes", "on", "1"].contains($1) ? .registered : .unregistered
        }),
        SettingKey("camera", "depth_fx", .decimal(1...100_000, unit: "pixels") { $0.depthIntrinsics.fx = $1 }),
        SettingKey("camera", "depth_fy", .decimal(1...100_000, unit: "pixels") { $0.depthIntrinsics.fy = $1 }),
        SettingKey("camera", "depth_cx", .decimal(0...16384, unit: "pixels") { $0.depthIntrinsics.cx = $1 }),
        SettingKey("camera", "depth_cy", .decimal(0...16384, unit: "pixels") { $0.depthIntrinsics.cy = $1 }),
        SettingKey("camera", "color_fx", .decimal(1...100_000, unit: "pixels") { $0.colorIntrinsics.fx = $1 }),
        SettingKey("camera", "color_fy", .decimal(1...100_000, unit: "pixels") { $0.colorIntrinsics.fy = $1 }),
        SettingKey("camera", "color_cx", .decimal(0...16384, unit: "pixels") { $0.colorIntrinsics.cx = $1 }),
        SettingKey("camera", "color_cy", .decimal(0...16384, unit: "pixels") { $0.colorIntrinsics.cy = $1 }),
        SettingKey("camera", "tx_mm", .decimal(-1000...1000, unit: "millimetres") { $0.settings.camera.depthToColor.xMM = $1 }),
        SettingKey("camera", "ty_mm", .decimal(-1000...1000, unit: "millimetres") { $0.settings.camera.depthToColor.yMM = $1 }),
        SettingKey("camera", "tz_mm", .decimal(-1000...1000, unit: "millimetres") { $0.settings.camera.depthToColor.zMM = $1 }),

        SettingKey("sync", "tolerance_ms",
                   .integer(0...1000, unit: "milliseconds, 0 = half a frame period") { $0.settings.sync.toleranceMS = $1 }),

        SettingKey("output", "sink", .choice(OutputSettings.Sink.self) { $0.settings.output.sink = $1 }),
        SettingKey("output", "path", .path { $0.settings.output.path = $1 }),
        SettingKey("output", "width", .integer(16...8192, unit: "pixels") { $0.settings.output.size.width = $1 }),
        SettingKey("output", "height", .integer(16...8192, unit: "pixels") { $0.settings.output.size.height = $1 }),
        SettingKey("output", "card", .device { $0.settings.output.card = $1 }),
        SettingKey("output", "mode", .sizeOrAuto { $0.settings.output.mode = $1 }),
        SettingKey("output", "blend", .choice(OutputSettings.Blend.self) { $0.settings.output.blend = $1 }),
        SettingKey("output", "writeback", .boolean { $0.settings.output.writeback = $1 }),

        SettingKey("pipeline", "workers", .integer(1...16, unit: "threads") { $0.settings.pipeline.workers = $1 }),
        SettingKey("pipeline", "io_cpu", .integer(-1...63, unit: "CPU number, -1 = unpinned") {
            $0.settings.pipeline.ioCPU = $1 < 0 ? nil : $1
        }),
        SettingKey("pipeline", "worker_cpus", .cpus { $0.settings.pipeline.workerCPUs = $1 }),
        SettingKey("pipeline", "realtime", .boolean { $0.settings.pipeline.realtime = $1 }),
        SettingKey("pipeline", "realtime_priority",
                   .integer(1...99, unit: "SCHED_FIFO priority") { $0.settings.pipeline.realtimePriority = $1 }),

        SettingKey("buttons", "board", .word { $0.settings.buttons.board = $1 }),
        SettingKey("buttons", "next", .word { $0.settings.buttons.next = $1 }),
        SettingKey("buttons", "previous", .word { $0.settings.buttons.previous = $1 }),
        SettingKey("buttons", "shutter", .word { $0.settings.buttons.shutter = $1 }),
        SettingKey("buttons", "debounce_ms",
                   .integer(0...1000, unit: "milliseconds") { $0.settings.buttons.debounceMS = $1 }),
        SettingKey("buttons", "long_press_ms",
                   .integer(100...10000, unit: "milliseconds") { $0.settings.buttons.longPressMS = $1 }),

        SettingKey("photos", "directory", .path { $0.settings.photos.directory = $1 }),
        SettingKey("photos", "countdown_s",
                   .integer(0...10, unit: "seconds, 0 = no countdown") { $0.settings.photos.countdownSeconds = $1 }),
        SettingKey("photos", "keep_layers", .boolean { $0.settings.photos.keepLayers = $1 }),

        SettingKey("looks", "cycle", .names { $0.settings.looks.cycle = $1 }),
        SettingKey("looks", "start", .name { $0.settings.looks.start = $1 }),
        SettingKey("looks", "directory", .path { $0.settings.looks.directory = $1 }),
    ]

    public static func key(section: String, name: String) -> SettingKey? {
        for key in keys where key.section == section && key.name == name { return key }
        return nil
    }
}
