// OutputLineSpec: one output line (a lamp or a relay) the booth requests, initially off.

/// One output line to request; it starts logically low (off).
public struct OutputLineSpec: Equatable, Hashable, Sendable {
    /// What the line is for, e.g. `buttonLamp`; named in error messages.
    public var role: String
    /// Which line on the chip.
    public var line: LineSelector
    /// Invert the line so that `true` drives it low (for loads switched to 3.3 V).
    public var activeLow: Bool

    /// Creates a spec.
    public init(role: String, line: LineSelector, activeLow: Bool = false) {
        self.role = role
        self.line = line
        self.activeLow = activeLow
    }
}
