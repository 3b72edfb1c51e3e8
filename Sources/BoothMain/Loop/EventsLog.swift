// EventsLog: the events output (`--events-json`, the service's rotated events file).
import BoothCore
import BoothSystem
import Glibc

/// The events output (`--events-json`, or the service's events file, kept to a size by rotation): one
/// JSON object per line for every state transition, LED change,
/// sound start and end, capture, saved or discarded photo, setting change and error, each with a
/// monotonic timestamp in microseconds (`t_us`). docs/reference/events.md documents the format.
///
/// Records are kept in memory until `flush()`, which the loop calls once the events that woke it
/// have been handled: writing (to a slow disk, a pipe, a VM's shared folder) never stands between a
/// press and its sound.
final class EventsLog {
    /// A field value.
    enum Value {
        case string(String)
        case int(Int64)
        case bool(Bool)
    }

    private var fd: Int32
    private let ownsDescriptor: Bool
    private var pending: [UInt8] = []
    /// For a rotated file: its path and the size at which it becomes `path.1`.
    private let rotation: (path: String, size: Int)?
    /// Bytes in the current file.
    private var written = 0
    /// Observers see every record (the terminal view uses them).
    var observers: [(String, Instant, [(String, Value)]) -> Void] = []

    /// Writes to `path` ("-" for standard output), or nowhere when nil.
    init(path: String?) throws(SystemError) {
        switch path {
        case nil:
            fd = -1
            ownsDescriptor = false
        case "-":
            fd = STDOUT_FILENO
            ownsDescriptor = false
        case let path?:
            fd = try SystemError.check("open", path) { open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) }
            ownsDescriptor = true
        }
        rotation = nil
    }

    /// Appends to `path`, keeping it and one older file below `limit` bytes together: when `path` reaches
    /// half the limit it is renamed `path.1` (replacing the older one) and a new `path` begins. What a power
    /// cut leaves at the end is repaired first: zero bytes (the file's new size reached the card, its last
    /// blocks did not) are cut off, and a last line cut short is ended, so the next record starts on a line of
    /// its own and the file stays text.
    init(rotating path: String, limit: Int) throws(SystemError) {
        rotation = (path, max(1, limit / 2))
        ownsDescriptor = true
        fd = try Self.openForAppending(path)
        var info = stat()
        _ = fstat(fd, &info)
        written = Self.endOfText(fd, size: Int(info.st_size))
        if written < Int(info.st_size) { _ = ftruncate(fd, off_t(written)) }
        var last: UInt8 = 0
        if written > 0, pread(fd, &last, 1, off_t(written - 1)) == 1, last != UInt8(ascii: "\n") {
            pending.append(UInt8(ascii: "\n"))
        }
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

    private static func openForAppending(_ path: String) throws(SystemError) -> Int32 {
        try SystemError.check("open", path) { open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0o640) }
    }

    deinit {
        flush()
        if ownsDescriptor { close(fd) }
    }

    /// Writes one record of `type` at `time`.
    func record(_ type: String, at time: Instant, _ fields: [(String, Value)] = []) {
        for observer in observers { observer(type, time, fields) }
        guard fd >= 0 else { return }
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

    /// Writes the records kept since the last flush (then, for a rotated file past its size, rotates).
    func flush() {
        guard fd >= 0, !pending.isEmpty else { return }
        var offset = 0
        while offset < pending.count {
            let n = pending.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            offset += n
        }
        written += offset
        pending.removeAll(keepingCapacity: true)
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
            fd = try Self.openForAppending(path)
        } catch {
            Log.warning("events: \(error); no more events are kept")
        }
    }
}
