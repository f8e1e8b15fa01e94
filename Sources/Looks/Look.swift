/// What a look is applied to: the people (per camera pixel, in compose), the backdrop (once,
/// when it is decoded) or both.
public enum LookTarget: String, Sendable, CaseIterable {
    case people
    case backdrop
    case both

    public var people: Bool { self != .backdrop }
    public var backdrop: Bool { self != .people }
}

/// A named chain of steps, as data (built in, or from a looks file on the stick).
public struct Look: Equatable, Sendable {
    public let name: String
    public let steps: [LookStep]
    public let target: LookTarget

    public init(name: String, steps: [LookStep], target: LookTarget = .both) {
        self.name = name
        self.steps = steps
        self.target = target
    }

    /// Spatial steps read neighbours, which the people's per-pixel path does not have: a look
    /// holding one applies its spatial part to the backdrop only.
    public var spatialSteps: [LookStep] { steps.filter { !$0.isColour } }
}

/// A look made ready at load time: its colour steps folded, its spatial steps kept in order.
/// Immutable; shared by the frame path's threads.
public final class PreparedLook: Sendable {
    public let look: Look
    public let colour: ColourLookup?
    public let spatial: [LookStep]

    public init(_ look: Look) {
        self.look = look
        colour = ColourLookup.fold(look.steps)
        spatial = look.spatialSteps
    }

    public var name: String { look.name }
    /// The lookup the people's pixels go through, nil when the look leaves them as they are.
    public var peopleColour: ColourLookup? { look.target.people ? colour : nil }
    public var touchesBackdrop: Bool { look.target.backdrop && (colour != nil || !spatial.isEmpty) }
}
