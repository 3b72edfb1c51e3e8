// PrintError: why CUPS did not take or print a photo, in words that name the fix.
/// Why CUPS did not take or print a photo, in words that name the problem and the fix.
public struct PrintError: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
