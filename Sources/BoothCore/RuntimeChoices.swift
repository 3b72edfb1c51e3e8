// RuntimeChoices: the choices a person makes with the knob, persisted across restarts.
/// The choices a person makes with the knob, persisted across restarts.
public struct RuntimeChoices: Hashable, Sendable, Codable {
    /// The selected attention sound's name.
    public var sound: String
    /// The countdown delay in half seconds (1...6 for 0.5...3.0 s).
    public var delayHalfSeconds: Int
    /// Whether the countdown LEDs flash during the delay.
    public var visualCountdown: Bool
    /// The booth's own volume in percent of the sounds' amplitude (10...100 in steps of 10), on top of
    /// the card's mixer and `sound.gain_db`: set at the booth with the knob.
    public var volumePercent: Int

    /// The allowed delays, in half seconds.
    public static let delayRange = 1...6
    /// The allowed volumes, in percent: never 0 (a booth silenced by the knob would look broken).
    public static let volumeRange = 10...100
    /// One knob detent of volume, in percent.
    public static let volumeStep = 10

    /// Choices as given, the delay clamped into range and the volume onto a step in range.
    public init(sound: String, delayHalfSeconds: Int, visualCountdown: Bool, volumePercent: Int = 100) {
        self.sound = sound
        self.delayHalfSeconds = min(max(delayHalfSeconds, Self.delayRange.lowerBound), Self.delayRange.upperBound)
        self.visualCountdown = visualCountdown
        self.volumePercent = Self.volumePercent(volumePercent) ?? Self.volumeRange.upperBound
    }

    /// `percent` as an allowed volume, or nil when it is not a step of 10 in 10...100 (a damaged or
    /// hand-edited state file).
    public static func volumePercent(_ percent: Int) -> Int? {
        volumeRange.contains(percent) && percent % volumeStep == 0 ? percent : nil
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
