// GPIOLineInfo: what the kernel reports about one line (for `booth doctor` and busy-line errors).

/// The kernel's view of one GPIO line.
public struct GPIOLineInfo: Equatable, Hashable, Sendable {
    /// Direction of a line.
    public enum Direction: Equatable, Hashable, Sendable {
        /// The line is an input.
        case input
        /// The line is an output.
        case output
        /// The kernel did not say.
        case unknown
    }

    /// Offset of the line on its chip.
    public var offset: Int
    /// Line name, e.g. `GPIO17`; empty if unnamed.
    public var name: String
    /// Who holds the line, e.g. `heylook-booth`; empty if nobody or unnamed.
    public var consumer: String
    /// True if a program or kernel driver holds the line.
    public var isUsed: Bool
    /// Input or output.
    public var direction: Direction
    /// True if configured active-low.
    public var isActiveLow: Bool

    /// Creates a line description.
    public init(
        offset: Int, name: String, consumer: String, isUsed: Bool, direction: Direction, isActiveLow: Bool
    ) {
        self.offset = offset
        self.name = name
        self.consumer = consumer
        self.isUsed = isUsed
        self.direction = direction
        self.isActiveLow = isActiveLow
    }
}
