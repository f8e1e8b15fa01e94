/// The looks the box knows without a stick; `config/backdrop.conf` names them.
public enum BuiltInLooks {
    public static let all: [Look] = [
        Look(name: "none", steps: []),
        Look(name: "mono", steps: [.mono]),
        Look(name: "noir", steps: [.contrast(factor: 1.15), .noir]),
        Look(name: "sepia", steps: [.sepia(amount: 1)]),
        Look(name: "vintage", steps: [.vintage]),
        Look(name: "instant", steps: [.saturation(factor: 0.8), .vintage, .fade(amount: 0.1)]),
        Look(name: "faded", steps: [.fade(amount: 0.25), .saturation(factor: 0.7)]),
        Look(name: "vivid", steps: [.saturation(factor: 1.5), .contrast(factor: 1.15)]),
        Look(name: "warm", steps: [.tint(red: 1, green: 0.85, blue: 0.65, amount: 0.3)]),
        Look(name: "cool", steps: [.tint(red: 0.7, green: 0.85, blue: 1, amount: 0.3)]),
        Look(name: "bright", steps: [.exposure(stops: 0.5)]),
        Look(name: "poster", steps: [.posterize(levels: 4)]),
        Look(name: "thermal", steps: [.thermal]),
        Look(name: "xray", steps: [.xray]),
        Look(name: "negative", steps: [.invert]),
        Look(name: "pixel", steps: [.pixellate(size: 16)], target: .backdrop),
        Look(name: "soft", steps: [.blur(radius: 12)], target: .backdrop),
    ]

    public static func named(_ name: String) -> Look? {
        for look in all where look.name == name { return look }
        return nil
    }

    public static var names: [String] { all.map { $0.name } }
}
