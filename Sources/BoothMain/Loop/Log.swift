// Log: log lines on standard error (the journal on a Pi), with systemd priority prefixes.
import Glibc

/// Log lines on standard error (the journal on a Pi), prefixed for systemd's priority parsing.
enum Log {
    /// Whether informational lines are written (errors and warnings always are).
    nonisolated(unsafe) static var verbose = true

    /// An error a person should act on.
    static func error(_ message: String) { write("<3>error: \(message)") }
    /// Something degraded that still works.
    static func warning(_ message: String) { write("<4>warning: \(message)") }
    /// Progress.
    static func info(_ message: String) { if verbose { write("<6>\(message)") } }

    private static func write(_ line: String) {
        let text = line + "\n"
        _ = text.withCString { Glibc.write(STDERR_FILENO, $0, strlen($0)) }
    }
}
