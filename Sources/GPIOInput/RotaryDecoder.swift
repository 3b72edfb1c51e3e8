// RotaryDecoder: quadrature decoding of a rotary encoder into one step per detent.

/// Decodes the two contacts of a rotary encoder (A and B, logical levels) into detent steps.
///
/// Direction: +1 is "A leads B", i.e. A changes first: (A,B) 00 → 10 → 11 → 01 → 00. On a
/// KY-040 wired CLK→A, DT→B that is clockwise; swap A and B to reverse.
///
/// The phase (A,B) moves through a Gray-code cycle; each single-contact change is one valid
/// transition, ±1 by the table in `transition(from:to:)`. Both contacts changing at once is
/// invalid (an edge was missed): it moves the phase but counts nothing. Transitions are summed
/// since the last detent, and a step is reported only on arriving at a detent with the sum at
/// ±`mode.transitionsPerDetent`. So contact bounce (back and forth on one contact) cancels out,
/// and a step never comes from fewer valid transitions than one detent's worth.
public struct RotaryDecoder: Sendable {
    /// How many transitions the encoder makes per detent.
    public enum Mode: Equatable, Sendable {
        /// Four transitions (one whole Gray cycle) per detent, e.g. KY-040; the detent is the
        /// phase the encoder rests in (00 or 11), learned from the first resting phase seen.
        case fullStep
        /// Two transitions per detent; detents at phases 00 and 11.
        case halfStep

        /// Valid transitions between two detents.
        public var transitionsPerDetent: Int {
            switch self {
            case .fullStep: 4
            case .halfStep: 2
            }
        }
    }

    /// The configured mode.
    public let mode: Mode
    /// Current phase, `A << 1 | B`.
    private var phase: UInt8
    /// Net valid transitions since the last detent.
    private var sum = 0
    /// Full-step: the resting phase (0 or 3) once known.
    private var detent: UInt8?

    /// Sub-step direction for each phase change, indexed `from << 2 | to` with phase `A << 1 | B`:
    /// +1 along 0→2→3→1→0 (A leads), -1 along the reverse, 0 for no change or an invalid jump.
    private static let table: [Int8] = [
        0, -1, 1, 0,  // from 00
        1, 0, 0, -1,  // from 01
        -1, 0, 0, 1,  // from 10
        0, 1, -1, 0,  // from 11
    ]

    /// Creates a decoder; `a` and `b` are the contacts' levels now (the encoder at rest).
    public init(mode: Mode = .fullStep, a: Bool = false, b: Bool = false) {
        self.mode = mode
        phase = Self.phase(a: a, b: b)
        if mode == .fullStep, Self.isRestingPhase(phase) {
            detent = phase
        }
    }

    /// Feeds the contacts' current levels (call on every edge of A or B).
    /// Returns +1 or -1 when a detent step completes, otherwise 0.
    public mutating func update(a: Bool, b: Bool) -> Int {
        let next = Self.phase(a: a, b: b)
        guard next != phase else { return 0 }
        sum += Self.transition(from: phase, to: next)
        phase = next
        guard isDetent(next) else { return 0 }
        defer { sum = 0 }
        if sum >= mode.transitionsPerDetent { return 1 }
        if sum <= -mode.transitionsPerDetent { return -1 }
        return 0
    }

    /// The table entry for one phase change: +1, -1 or 0 (none, or invalid).
    static func transition(from: UInt8, to: UInt8) -> Int {
        Int(table[Int(from & 3) << 2 | Int(to & 3)])
    }

    /// `A << 1 | B`.
    static func phase(a: Bool, b: Bool) -> UInt8 {
        (a ? 2 : 0) | (b ? 1 : 0)
    }

    private static func isRestingPhase(_ phase: UInt8) -> Bool {
        phase == 0 || phase == 3
    }

    /// Whether `phase` is a detent; in full-step mode learns the detent on first rest.
    private mutating func isDetent(_ phase: UInt8) -> Bool {
        switch mode {
        case .halfStep:
            return Self.isRestingPhase(phase)
        case .fullStep:
            if let detent { return phase == detent }
            guard Self.isRestingPhase(phase) else { return false }
            detent = phase
            sum = 0
            return false
        }
    }
}
