// GPIOEdge: one kernel edge event on an input line.

/// An edge on an input line, as the kernel timestamped it.
public struct GPIOEdge: Equatable, Hashable, Sendable {
    /// The logical level after the edge (after `activeLow`): `true` means pressed for a button.
    public var level: Bool
    /// Kernel timestamp in nanoseconds on CLOCK_MONOTONIC.
    public var timestampNanoseconds: UInt64

    /// Creates an edge.
    public init(level: Bool, timestampNanoseconds: UInt64) {
        self.level = level
        self.timestampNanoseconds = timestampNanoseconds
    }
}
