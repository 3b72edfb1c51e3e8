// PrintLedgerFile: the prints made since `booth print reset`, kept durably in `prints.txt` beside the state file.
import BoothCore
import BoothSystem

/// The file that keeps the booth's prints across restarts (`BoothSettings.printLedgerFile`): read whole to decide
/// (`PrintLedger`), a line appended and synced for each print CUPS took, `-- reset` appended by `booth print reset`.
/// Appending keeps the file's owner (the booth's user) when an admin resets it. Any thread; one writer at a time
/// (the printer's worker, or the reset command).
package struct PrintLedgerFile {
    /// The file's path.
    package let path: String
    /// The largest ledger read: about 200,000 prints.
    static let limit = 8 * 1024 * 1024

    /// The file at `path`.
    package init(path: String) { self.path = path }

    /// The prints since the last reset (none when the file does not exist).
    package func read() throws(SystemError) -> PrintLedger {
        PrintLedger(text: try FileReading.text(of: path, limit: Self.limit))
    }

    /// Appends `line` and makes it durable. A last line a power cut left without its end is ended first, so `line`
    /// stays a line of its own.
    package func append(_ line: String) throws(SystemError) {
        let file = try AppendingFile(appendingTo: path, mode: 0o644)
        var bytes = Array(line.utf8)
        let size = file.size()
        if size > 0 {
            var last: UInt8 = 0
            let read = withUnsafeMutableBytes(of: &last) { file.read(into: $0, at: size - 1) }
            if read == 1, last != UInt8(ascii: "\n") { bytes.insert(UInt8(ascii: "\n"), at: 0) }
        }
        try file.writeAll(bytes, path: path)
        try file.sync(path)
    }
}
