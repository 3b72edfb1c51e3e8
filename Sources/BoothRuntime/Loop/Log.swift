// Log: log lines on standard error, with systemd priority prefixes when standard error is the journal.
import BoothSystem

/// Log lines on standard error. When standard error is the journal (a service's), each line starts with its
/// syslog priority (`<3>`, `<4>`, `<6>`) for journald to parse; on a terminal or in a file it does not.
package enum Log {
    /// Whether informational lines are written (errors and warnings always are).
    nonisolated(unsafe) static var verbose = true

    /// An error a person should act on.
    package static func error(_ message: String) { write(line("error: \(message)", priority: 3)) }
    /// Something degraded that still works.
    package static func warning(_ message: String) { write(line("warning: \(message)", priority: 4)) }
    /// Progress.
    package static func info(_ message: String) { if verbose { write(line(message, priority: 6)) } }

    /// Whether standard error is the journal, decided once at the first line.
    static let toJournal = isJournal(
        stream: Environment.value("JOURNAL_STREAM"), fd: StandardStream.error.fileDescriptor)

    /// `text` as written: with its priority prefix when `journal`.
    static func line(_ text: String, priority: Int, journal: Bool = toJournal) -> String {
        journal ? "<\(priority)>\(text)" : text
    }

    /// Whether `fd` is the journal's stream: systemd sets `JOURNAL_STREAM` to that stream's "device:inode" for a
    /// service whose standard error goes to the journal. A child process that inherits the variable but writes to
    /// a terminal or a file has another device and inode, so it gets no prefixes.
    static func isJournal(stream: String?, fd: FileDescriptor) -> Bool {
        guard let stream else { return false }
        let parts = stream.split(separator: ":")
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else { return false }
        return FileIdentity(descriptor: fd) == FileIdentity(device: device, inode: inode)
    }

    /// A line kept at the bottom of the terminal (the interactive simulator's status): cleared before each log line and
    /// drawn again after it, so the two never run into each other.
    nonisolated(unsafe) static var statusLine: (clear: () -> Void, draw: () -> Void)?

    private static func write(_ line: String) {
        statusLine?.clear()
        StandardStream.error.write(line + "\n")
        statusLine?.draw()
    }
}
