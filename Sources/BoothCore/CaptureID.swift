// CaptureID: names one shot of one sequence, so late completions of an abandoned one are told apart.
/// Names one shot of one sequence, so late completions of an abandoned sequence can be told apart.
public struct CaptureID: Hashable, Sendable, CustomStringConvertible {
    /// The sequence (one press of the big button), counted from 1 since start.
    public var sequence: UInt64
    /// The shot within the sequence, from 0 (bursts take several).
    public var shot: Int

    /// The shot `shot` of sequence `sequence`.
    public init(sequence: UInt64, shot: Int) {
        self.sequence = sequence
        self.shot = shot
    }

    /// A single integer for C APIs: sequence in the high bits, shot in the low byte.
    public var cookie: UInt64 { sequence << 8 | UInt64(shot & 0xFF) }

    /// The capture a cookie names.
    public init(cookie: UInt64) {
        self.init(sequence: cookie >> 8, shot: Int(cookie & 0xFF))
    }

    public var description: String { "\(sequence).\(shot)" }
}
