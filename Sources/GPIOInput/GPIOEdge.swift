// GPIOEdge: one kernel edge event on an input line.
import BoothTime

/// An edge on an input line, as the kernel timestamped it.
public struct GPIOEdge: Equatable, Hashable, Sendable {
    /// The logical level after the edge (after `activeLow`): `true` means pressed for a button.
    public var level: Bool
    /// When the kernel stamped it (CLOCK_MONOTONIC).
    public var time: Instant

    /// Creates an edge.
    public init(level: Bool, time: Instant) {
        self.level = level
        self.time = time
    }
}
