// KnobEdgeMerger: a rotary encoder's two lines, read from two descriptors, merged into detent steps.

/// Merges the edges of an encoder's A and B lines, read from two descriptors (libgpiod v1: one
/// per line), into the decoder in kernel time order, and returns the detent steps.
///
/// Events in, steps out, no clock: the owner passes each batch of edges it read together with the
/// kernel time at which it began reading. Only edges older than that instant are decoded; newer
/// ones wait (`hasPending`) for a later read, by when the edges before them on the other line
/// should be queued too.
public struct KnobEdgeMerger: Sendable {
    /// Which of the encoder's two lines an edge is on.
    public enum Line: Equatable, Sendable {
        /// Contact A.
        case a
        /// Contact B.
        case b
    }

    /// One edge as the kernel reported it.
    public struct Edge: Equatable, Sendable {
        /// The line.
        public var line: Line
        /// The logical level after the edge.
        public var level: Bool
        /// Kernel timestamp (CLOCK_MONOTONIC), nanoseconds.
        public var timestampNanoseconds: UInt64

        /// Creates an edge.
        public init(line: Line, level: Bool, timestampNanoseconds: UInt64) {
            self.line = line
            self.level = level
            self.timestampNanoseconds = timestampNanoseconds
        }
    }

    /// A detent step and the kernel time of the edge that completed it.
    public struct Step: Equatable, Sendable {
        /// +1 or -1 (see `RotaryDecoder`).
        public var steps: Int
        /// Kernel timestamp of the completing edge, nanoseconds.
        public var timestampNanoseconds: UInt64
    }

    private var decoder: RotaryDecoder
    private var levels: (a: Bool, b: Bool)
    private var pending: [Edge] = []

    /// Creates a merger with the lines' levels now (the encoder at rest).
    public init(mode: RotaryDecoder.Mode, a: Bool, b: Bool) {
        decoder = RotaryDecoder(mode: mode, a: a, b: b)
        levels = (a, b)
    }

    /// Whether edges wait for a later `read` (the owner should read again within a few ms).
    public var hasPending: Bool { !pending.isEmpty }

    /// Takes the edges of one read of both lines (each line's in kernel order) that began at
    /// `readBegan` (kernel time) and returns the steps they complete.
    public mutating func read(_ edges: [Edge], readBegan: UInt64) -> [Step] {
        pending += edges
        pending.sort { $0.timestampNanoseconds < $1.timestampNanoseconds }
        let ready = pending.prefix { $0.timestampNanoseconds < readBegan }
        pending.removeFirst(ready.count)
        var steps: [Step] = []
        for edge in ready {
            switch edge.line {
            case .a: levels.a = edge.level
            case .b: levels.b = edge.level
            }
            let step = decoder.update(a: levels.a, b: levels.b)
            if step != 0 { steps.append(Step(steps: step, timestampNanoseconds: edge.timestampNanoseconds)) }
        }
        return steps
    }
}
