// PrintWaitingFile: the pages waiting for CUPS, kept durably in `print-waiting.txt` beside the state file.
import BoothCore
import BoothSystem

/// The file that keeps the pages waiting for an out-of-reach CUPS across a restart (`BoothSettings.printWaitingFile`,
/// `PrintWaitingList`): read whole when the printer starts (and by `booth doctor`), written whole (replaced durably)
/// whenever a page begins or ends its wait. One writer at a time: the printer's worker, or the printer's `finish`
/// once the worker is done.
package struct PrintWaitingFile {
    /// The file's path.
    package let path: String
    /// The largest list read: about 20,000 pages.
    static let limit = 2 * 1024 * 1024

    /// The file at `path`.
    package init(path: String) { self.path = path }

    /// The pages kept (none when the file does not exist).
    package func read() throws(SystemError) -> PrintWaitingList {
        PrintWaitingList(text: try FileReading.text(of: path, limit: Self.limit))
    }

    /// Moves a file that cannot be read to `NAME.unreadable` beside it, so that the next write does not replace the
    /// pages it may hold (an admin can read them there); a failure is in the journal.
    func setAside() {
        let aside = path + ".unreadable"
        do {
            try SystemError.check("rename", path) { SystemFileOperations().rename(path, aside) }
        } catch {
            Log.error("print: \(path) cannot be moved to \(aside) (\(error))")
            return
        }
        Log.warning("print: \(path) moved to \(path).unreadable: its photos are not sent again by themselves")
    }

    /// Keeps `list` in place of what the file held: whole, or not at all, after a power cut.
    func write(_ list: PrintWaitingList) throws(SystemError) {
        try DurableFile().write(Array(list.text.utf8), path: path, replacing: true)
    }
}
