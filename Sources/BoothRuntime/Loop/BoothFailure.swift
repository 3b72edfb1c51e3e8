// BoothFailure: an error for the person at the terminal.

/// An error for the person at the terminal: the message says what to do.
package struct BoothFailure: Error, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}
