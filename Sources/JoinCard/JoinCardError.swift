// JoinCardError: why a join card could not be made.
/// Why a join card could not be made, in words that name the problem and what to do.
public struct JoinCardError: Error, CustomStringConvertible, Equatable {
    /// The message.
    public let description: String

    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}
