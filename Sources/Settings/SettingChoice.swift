import Frames
import Matte

/// An enumeration a config value names by one of its cases' `name`.
protocol SettingChoice: CaseIterable, Sendable {
    var name: String { get }
}

extension MatteParameters.Mode: SettingChoice {}
extension FitMode: SettingChoice {}
extension CameraSettings.Source: SettingChoice {}
extension CameraSettings.ColorFormat: SettingChoice {}
extension OutputSettings.Sink: SettingChoice {}
extension OutputSettings.Blend: SettingChoice {}
