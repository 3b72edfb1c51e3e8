// StandardStream: standard input, output and error, by descriptor, and a message written to one.
import Glibc

/// Standard input, output and error: their descriptors, and text written to one.
public enum StandardStream: Int32, Sendable {
    /// Standard input.
    case input = 0
    /// Standard output.
    case output = 1
    /// Standard error (a service's goes to the journal).
    case error = 2

    /// The descriptor (STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO).
    public var descriptor: Int32 { rawValue }

    /// Writes `text` in one call, so lines from several threads never interleave; what the stream does not take
    /// is dropped (a message that cannot be written has nowhere else to go). The corresponding C function is `write`.
    public func write(_ text: String) {
        _ = text.withCString { Glibc.write(descriptor, $0, strlen($0)) }
    }
}
