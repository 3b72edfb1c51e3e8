// KnobEdgeMerger: a rotary encoder's two lines, read from two descriptors, merged into detent steps.
import BoothTime

/// Merges the edges of an encoder's A and B lines, read from two descriptors (libgpiod v1: one
/// per line), into the decoder in kernel time order, and returns the detent steps.
///
/// Events in, steps out, no clock: the owner passes each batch of edges it read together with the
/// kernel time at which it began reading. Only edges older than that instant are decoded; newer
/// ones wait (`hasPending`) for a later read, by when the edges before them on the other line
/// are usually queued too.
///
/// Usually, not always: the v1 uAPI stamps an edge in the hard IRQ handler but queues it from the
/// line's own IRQ thread, so under load an edge can reach its line's queue after a later edge of
/// the other line was read and decoded. Decoding in arrival order would then count the pair
/// backwards and lose the detent. So the edges decoded since the last step are kept, and a late
/// edge is put in its place among them and they are decoded again from the state after that step.
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
        /// When the kernel stamped it (CLOCK_MONOTONIC).
        public var time: Instant

        /// Creates an edge.
        public init(line: Line, level: Bool, time: Instant) {
            self.line = line
            self.level = level
            self.time = time
        }
    }

    /// A detent step and the kernel time of the edge that completed it.
    public struct Step: Equatable, Sendable {
        /// +1 or -1 (see `RotaryDecoder`).
        public var steps: Int
        /// The kernel's timestamp of the completing edge.
        public var time: Instant
    }

    private var decoder: RotaryDecoder
    private var levels: (a: Bool, b: Bool)
    private var pending: [Edge] = []
    /// The decoder and levels after the last step (or at start).
    private var checkpoint: (decoder: RotaryDecoder, levels: (a: Bool, b: Bool))
    /// Edges decoded since `checkpoint`, in kernel time order.
    private var sinceCheckpoint: [Edge] = []
    /// At most this many edges are kept; a knob wobbling longer without a step moves the checkpoint.
    private static let keptEdges = 64

    /// Creates a merger with the lines' levels now (the encoder at rest).
    public init(mode: RotaryDecoder.Mode, a: Bool, b: Bool) {
        decoder = RotaryDecoder(mode: mode, a: a, b: b)
        levels = (a, b)
        checkpoint = (decoder, levels)
    }

    /// Whether edges wait for a later `read` (the owner should read again within a few ms).
    public var hasPending: Bool { !pending.isEmpty }

    /// Takes the edges of one read of both lines (each line's in kernel order) that began at
    /// `readBegan` (kernel time) and returns the steps they complete.
    public mutating func read(_ edges: [Edge], readBegan: Instant) -> [Step] {
        pending += edges
        pending.sort { $0.time < $1.time }
        let ready = pending.prefix { $0.time < readBegan }
        pending.removeFirst(ready.count)
        var steps: [Step] = []
        for edge in ready {
            guard let last = sinceCheckpoint.last, edge.time < last.time else {
                steps += decode(edge)
                continue
            }
            // Late: older than an edge already decoded. Decode again from the checkpoint in order.
            var replay = sinceCheckpoint
            let index = replay.lastIndex { $0.time <= edge.time } ?? -1
            replay.insert(edge, at: index + 1)
            (decoder, levels) = checkpoint
            sinceCheckpoint = []
            for edge in replay { steps += decode(edge) }
        }
        return steps
    }

    /// Applies one edge to the levels and the decoder; a step moves the checkpoint.
    private mutating func decode(_ edge: Edge) -> [Step] {
        switch edge.line {
        case .a: levels.a = edge.level
        case .b: levels.b = edge.level
        }
        let step = decoder.update(a: levels.a, b: levels.b)
        guard step == 0 else {
            checkpoint = (decoder, levels)
            sinceCheckpoint = []
            return [Step(steps: step, time: edge.time)]
        }
        sinceCheckpoint.append(edge)
        if sinceCheckpoint.count > Self.keptEdges {
            checkpoint = (decoder, levels)
            sinceCheckpoint = []
        }
        return []
    }
}
