// GPIOEdge: one kernel edge event on an input line.

/// An edge on an input line, as the kernel timestamped it.
public struct GPIOEdge: Equatable, Hashable, Sendable {
    /// Index of the line in the `inputs` passed to `GPIOLineSet.init`.
    public var input: Int
    /// The logical level after the edge (after `activeLow`): `true` means pressed for a button.
    public var level: Bool
    /// Kernel timestamp in nanoseconds on CLOCK_MONOTONIC.
    public var timestampNanoseconds: UInt64

    /// Creates an edge.
    public init(input: Int, level: Bool, timestampNanoseconds: UInt64) {
        self.input = input
        self.level = level
        self.timestampNanoseconds = timestampNanoseconds
    }
}
