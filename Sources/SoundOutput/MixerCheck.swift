// MixerCheck: whether a card's mixer would make the booth silent or quiet, and what to do about it.

/// Judges a sound card's mixer readings: muted or at zero (silent), or below half (quiet), with the
/// fix; the booth warns while either lasts.
public struct MixerCheck: Sendable {
    /// The playback controls inspected, in order.
    public static let controlNames = ["Master", "PCM", "Headphone", "Speaker"]

    /// The level below which the booth warns that its sounds are quiet (amixer's 50 %).
    public static let lowLevel = 0.5

    /// What one mixer control showed.
    public struct Reading: Equatable, Sendable {
        /// The control name, e.g. "PCM".
        public var name: String
        /// True when every playback channel's switch is off.
        public var muted: Bool
        /// The loudest playback channel's share of the volume range, 0...1; nil without a volume.
        public var level: Double?

        /// A reading of control `name`.
        public init(name: String, muted: Bool, level: Double?) {
            (self.name, self.muted, self.level) = (name, muted, level)
        }
    }

    /// What is wrong with the mixer, for the first control that shows it.
    public enum Problem: Equatable, Sendable {
        /// Muted, or its volume at the bottom: the sounds are silent.
        case silent(control: String, muted: Bool)
        /// Below `lowLevel`: the sounds are quiet (percent of the range).
        case low(control: String, percent: Int)
    }

    /// A checker with no state.
    public init() {}

    /// A warning when the first problematic Master/PCM/Headphone/Speaker control of `card` is muted,
    /// at zero or below half; nil when they are fine or the card has no mixer (this check never fails).
    /// `card` may be "0", "Headphones", "hw:0", "hw:CARD=Headphones" or a plughw: device name.
    public func playbackVolumeWarning(card: String) -> String? {
        let name = Self.mixerName(forCard: card)
        guard let mixer = Mixer(name: name), let problem = Self.problem(for: mixer.readings()) else { return nil }
        return Self.warning(for: problem, card: name)
    }

    /// The mixer device for `card`: "hw:<n>" or "hw:CARD=<id>"; "default" stays "default".
    public static func mixerName(forCard card: String) -> String {
        if card == "default" { return card }
        if let range = card.firstRange(of: "CARD=") {
            let id = card[range.upperBound...].prefix { $0 != "," }
            return "hw:CARD=\(id)"
        }
        if card.hasPrefix("hw:") || card.hasPrefix("plughw:") {
            let index = card.drop { $0 != ":" }.dropFirst().prefix { $0 != "," }
            return "hw:\(index)"
        }
        return card.allSatisfy(\.isNumber) ? "hw:\(card)" : "hw:CARD=\(card)"
    }

    /// The first control that makes the booth silent, else the first that makes it quiet, else nil.
    public static func problem(for readings: [Reading]) -> Problem? {
        for reading in readings {
            if reading.muted { return .silent(control: reading.name, muted: true) }
            if let level = reading.level, level <= 0 { return .silent(control: reading.name, muted: false) }
        }
        for reading in readings {
            if let level = reading.level, level < lowLevel {
                return .low(control: reading.name, percent: Int((level * 100).rounded()))
            }
        }
        return nil
    }

    /// The text shown for `problem` on mixer `card`, with the fix.
    public static func warning(for problem: Problem, card: String) -> String {
        let cardArgument = card.hasPrefix("hw:") ? " -D \(card)" : ""
        switch problem {
        case .silent(let control, let muted):
            return "Sound card '\(card)' control '\(control)' \(muted ? "is muted" : "is at volume 0"), "
                + "so the booth's sounds will be silent. "
                + "Fix: run `amixer\(cardArgument) sset \(control) 80% unmute` (or use alsamixer)."
        case .low(let control, let percent):
            return "Sound card '\(card)' control '\(control)' is at \(percent) %, so the booth's sounds are quiet. "
                + "Fix: run `amixer\(cardArgument) sset \(control) 80%` (or use alsamixer)."
        }
    }
}
