// PrintError: why CUPS did not take or print a photo, in words that name the fix.
/// Why CUPS did not take or print a photo, in words that name the problem and the fix.
public struct PrintError: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String
    /// Whether CUPS itself could not be reached (not running, restarting): the same request may succeed later.
    public let isUnreachable: Bool

    public init(_ description: String, unreachable: Bool = false) {
        self.description = description
        isUnreachable = unreachable
    }
}
