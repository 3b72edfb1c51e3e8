// EventsLog: the events output (`--events-json`, the service's rotated events file).
import BoothCore
import BoothSystem
import BoothTime
import Dispatch
import Glibc

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
final class EventsLog {
    /// A field value.
    enum Value {
        case string(String)
        case int(Int64)
        case bool(Bool)
    }

    /// The file and its rotation, used on the writer's queue only.
    private final class Writer: @unchecked Sendable {
        var fd: Int32
        let ownsDescriptor: Bool
        /// For a rotated file: its path and the size at which it becomes `path.1`.
        let rotation: (path: String, size: Int)?
        /// Bytes in the current file.
        var written: Int

        init(fd: Int32, ownsDescriptor: Bool, rotation: (path: String, size: Int)?, written: Int) {
            (self.fd, self.ownsDescriptor, self.rotation, self.written) = (fd, ownsDescriptor, rotation, written)
        }

        deinit { if ownsDescriptor, fd >= 0 { close(fd) } }

        /// Writes `bytes` whole (then, for a rotated file past its size, rotates).
        func write(_ bytes: [UInt8]) {
            guard fd >= 0 else { return }
            var offset = 0
            while offset < bytes.count {
                let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                offset += n
            }
            written += offset
            if let rotation, written >= rotation.size { rotate(rotation.path) }
        }

        /// `path` becomes `path.1` and a new `path` begins; where that fails the events stop, with a warning.
        private func rotate(_ path: String) {
            close(fd)
            fd = -1
            written = 0
            guard rename(path, path + ".1") == 0 else {
                Log.warning(
                    "events: cannot rename \(path) to \(path).1: \(ErrnoText.describe(errno)); no more events are kept")
                return
            }
            do {
                fd = try EventsLog.openForAppending(path)
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
    var observers: [(String, Instant, [(String, Value)]) -> Void] = []

    /// Writes to `path` ("-" for standard output), or nowhere when nil.
    init(path: String?) throws(SystemError) {
        switch path {
        case nil:
            writer = Writer(fd: -1, ownsDescriptor: false, rotation: nil, written: 0)
        case "-":
            writer = Writer(fd: STDOUT_FILENO, ownsDescriptor: false, rotation: nil, written: 0)
        case let path?:
            let fd = try SystemError.check("open", path) {
                open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            }
            writer = Writer(fd: fd, ownsDescriptor: true, rotation: nil, written: 0)
        }
        writes = path != nil
    }

    /// Appends to `path`, keeping it and one older file below `limit` bytes together: when `path` reaches
    /// half the limit it is renamed `path.1` (replacing the older one) and a new `path` begins. What a power
    /// cut leaves at the end is repaired first: zero bytes (the file's new size reached the card, its last
    /// blocks did not) are cut off, and a last line cut short is ended, so the next record starts on a line of
    /// its own and the file stays text.
    init(rotating path: String, limit: Int) throws(SystemError) {
        let fd = try Self.openForAppending(path)
        var info = stat()
        _ = fstat(fd, &info)
        let written = Self.endOfText(fd, size: Int(info.st_size))
        if written < Int(info.st_size) { _ = ftruncate(fd, off_t(written)) }
        var last: UInt8 = 0
        if written > 0, pread(fd, &last, 1, off_t(written - 1)) == 1, last != UInt8(ascii: "\n") {
            pending.append(UInt8(ascii: "\n"))
        }
        writer = Writer(fd: fd, ownsDescriptor: true, rotation: (path, max(1, limit / 2)), written: written)
        writes = true
    }

    /// The size of `fd`'s file without the zero bytes it ends in (read back from the end, 64 KiB at a time; a
    /// read that fails keeps the size as it is).
    private static func endOfText(_ fd: Int32, size: Int) -> Int {
        var end = size
        var buffer = [UInt8](repeating: 0, count: 65536)
        while end > 0 {
            let start = max(0, end - buffer.count)
            let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, end - start, off_t(start)) }
            guard n == end - start else { return end }
            if let last = buffer[..<n].lastIndex(where: { $0 != 0 }) { return start + last + 1 }
            end = start
        }
        return 0
    }

    fileprivate static func openForAppending(_ path: String) throws(SystemError) -> Int32 {
        try SystemError.check("open", path) { open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0o640) }
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
}
