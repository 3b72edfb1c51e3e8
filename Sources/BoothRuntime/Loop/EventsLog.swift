// EventsLog: the events output (`--events-json`, the service's rotated events file).
import BoothCore
import BoothSystem
import BoothTime
import Dispatch

/// The events output (`--events-json`, or the service's events file, kept to a size by rotation): one
/// JSON object per line for every state transition, LED change,
/// sound start and end, capture, saved or discarded photo, setting change and error, each with a
/// monotonic timestamp in microseconds (`t_us`). docs/reference/events.md documents the format.
///
/// Records are kept in memory until `flush()`, which the loop calls once the events that woke it have been
/// handled, and which hands them to a writer thread of their own: the loop never writes the file itself, so a
/// slow disk, a full pipe or a VM's shared folder never stands between a press and its sound, nor between a
/// countdown step and its LEDs (the rig's 9p share once held a `write` for 200 ms). `sync()` waits until
/// everything flushed is written.
package final class EventsLog {
    /// A field value.
    package enum Value {
        case string(String)
        case int(Int64)
        case bool(Bool)
    }

    /// The file and its rotation, used on the writer's queue only.
    private final class Writer: @unchecked Sendable {
        /// The file (nil: none, or none since a rotation failed); closed when released, unless standard output.
        var file: AppendingFile?
        /// For a rotated file: its path and the size at which it becomes `path.1`.
        let rotation: (path: String, size: Int)?
        /// Bytes in the current file.
        var written: Int

        init(file: AppendingFile?, rotation: (path: String, size: Int)?, written: Int) {
            (self.file, self.rotation, self.written) = (file, rotation, written)
        }

        /// Writes `bytes` whole (then, for a rotated file past its size, rotates).
        func write(_ bytes: [UInt8]) {
            guard let count = file?.write(bytes) else { return }
            written += count
            if let rotation, written >= rotation.size { rotate(rotation.path) }
        }

        /// `path` becomes `path.1` and a new `path` begins; where that fails the events stop, with a warning.
        private func rotate(_ path: String) {
            file = nil
            written = 0
            do throws(SystemError) {
                try SystemError.check("rename", path) { SystemFileOperations().rename(path, path + ".1") }
            } catch {
                let reason = ErrnoText.describe(error.errno)
                Log.warning("events: cannot rename \(path) to \(path).1: \(reason); no more events are kept")
                return
            }
            do {
                file = try EventsLog.openForAppending(path)
            } catch {
                Log.warning("events: \(error); no more events are kept")
            }
        }
    }

    /// Whether records are kept at all (nil path: only the observers see them).
    private let writes: Bool
    private let writer: Writer
    private let queue = DispatchQueue(label: "heylook.events")
    private var pending: [UInt8] = []
    /// Observers see every record (the terminal view uses them).
    package var observers: [(String, Instant, [(String, Value)]) -> Void] = []

    /// Writes to `path` ("-" for standard output), or nowhere when nil.
    package init(path: String?) throws(SystemError) {
        switch path {
        case nil:
            writer = Writer(file: nil, rotation: nil, written: 0)
        case "-":
            writer = Writer(file: AppendingFile(.output), rotation: nil, written: 0)
        case let path?:
            let file = try AppendingFile(truncating: path, mode: 0o644)
            writer = Writer(file: file, rotation: nil, written: 0)
        }
        writes = path != nil
    }

    /// Appends to `path`, keeping it and one older file below `limit` bytes together: when `path` reaches
    /// half the limit it is renamed `path.1` (replacing the older one) and a new `path` begins. What a power
    /// cut leaves at the end is repaired first: zero bytes (the file's new size reached the card, its last
    /// blocks did not) are cut off, and a last line cut short is ended, so the next record starts on a line of
    /// its own and the file stays text.
    package init(rotating path: String, limit: Int) throws(SystemError) {
        let file = try Self.openForAppending(path)
        let size = file.size()
        let written = Self.endOfText(file, size: size)
        if written < size { file.truncate(to: written) }
        var last: UInt8 = 0
        if written > 0, withUnsafeMutableBytes(of: &last, { file.read(into: $0, at: written - 1) }) == 1,
            last != UInt8(ascii: "\n")
        {
            pending.append(UInt8(ascii: "\n"))
        }
        writer = Writer(file: file, rotation: (path, max(1, limit / 2)), written: written)
        writes = true
    }

    /// The size of `file` without the zero bytes it ends in (read back from the end, 64 KiB at a time; a
    /// read that fails keeps the size as it is).
    private static func endOfText(_ file: AppendingFile, size: Int) -> Int {
        var end = size
        var buffer = [UInt8](repeating: 0, count: 65536)
        while end > 0 {
            let start = max(0, end - buffer.count)
            let n = buffer.withUnsafeMutableBytes {
                file.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[..<(end - start)]), at: start)
            }
            guard n == end - start else { return end }
            if let last = buffer[..<n].lastIndex(where: { $0 != 0 }) { return start + last + 1 }
            end = start
        }
        return 0
    }

    fileprivate static func openForAppending(_ path: String) throws(SystemError) -> AppendingFile {
        try AppendingFile(appendingTo: path, mode: 0o640)
    }

    deinit {
        flush()
        sync()
    }

    /// Writes one record of `type` at `time`.
    func record(_ type: String, at time: Instant, _ fields: [(String, Value)] = []) {
        for observer in observers { observer(type, time, fields) }
        guard writes else { return }
        var line = "{\"t_us\":\(time.microseconds),\"type\":\(EventRecord.quoted(type))"
        for (key, value) in fields {
            line += ",\(EventRecord.quoted(key)):"
            switch value {
            case .string(let s): line += EventRecord.quoted(s)
            case .int(let i): line += String(i)
            case .bool(let b): line += b ? "true" : "false"
            }
        }
        line += "}\n"
        pending += line.utf8
    }

    /// Hands the records kept since the last flush to the writer thread, in order; never waits for the file.
    func flush() {
        guard writes, !pending.isEmpty else { return }
        let bytes = pending
        pending.removeAll(keepingCapacity: true)
        queue.asyncOnNormalScheduler { [writer] in writer.write(bytes) }
    }

    /// Waits until every record flushed so far is written (shutdown, tests).
    func sync() {
        queue.sync {}
    }

    /// Feeds every line of `path` to `stats`, reading in pieces (an events file can be large); false when
    /// the file does not exist. A line longer than 64 KiB is counted as unreadable, not kept.
    package static func readLines(_ path: String, into stats: inout EventStats) throws -> Bool {
        let limit = 65536
        var line: [UInt8] = []
        var overlong = false
        let found: Bool
        do {
            found = try FileReading.forEachChunk(of: path) { chunk in
                for byte in chunk {
                    if byte == UInt8(ascii: "\n") {
                        stats.add(line: overlong ? "\u{0}" : Substring(String(decoding: line, as: UTF8.self)))
                        line.removeAll(keepingCapacity: true)
                        overlong = false
                    } else if line.count < limit {
                        line.append(byte)
                    } else {
                        overlong = true
                    }
                }
            }
        } catch {
            throw BoothFailure("cannot read \(path): \(error)")
        }
        if !found { return false }
        // A last line without its newline (cut short) is read like the others: it parses or it is unreadable.
        if !line.isEmpty || overlong {
            stats.add(line: overlong ? "\u{0}" : Substring(String(decoding: line, as: UTF8.self)))
        }
        return true
    }
}
