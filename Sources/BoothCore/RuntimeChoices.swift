// RuntimeChoices: the choices a person makes with the knob, persisted across restarts.
/// The choices a person makes with the knob, persisted across restarts.
public struct RuntimeChoices: Hashable, Sendable, Codable {
    /// The selected attention sound's name.
    public var sound: String
    /// The countdown delay in half seconds (1...6 for 0.5...3.0 s).
    public var delayHalfSeconds: Int
    /// Whether the countdown LEDs flash during the delay.
    public var visualCountdown: Bool

    /// The allowed delays, in half seconds.
    public static let delayRange = 1...6

    /// Choices as given, the delay clamped into range.
    public init(sound: String, delayHalfSeconds: Int, visualCountdown: Bool) {
        self.sound = sound
        self.delayHalfSeconds = min(max(delayHalfSeconds, Self.delayRange.lowerBound), Self.delayRange.upperBound)
        self.visualCountdown = visualCountdown
    }

    /// `seconds` as an allowed delay in half seconds, or nil for anything else: out of range, not a
    /// number, or too large for an integer (a damaged or hand-edited state file), checked before the
    /// conversion so such a value can never trap.
    public static func delayHalfSeconds(seconds: Double) -> Int? {
        let halves = (seconds * 2).rounded()
        guard halves >= Double(delayRange.lowerBound), halves <= Double(delayRange.upperBound) else { return nil }
        return Int(halves)
    }

    /// The delay in seconds.
    public var delaySeconds: Double { Double(delayHalfSeconds) / 2 }
}
