// EventsLog: the `--events-json` output.
import BoothCore
import Glibc

/// The `--events-json` output: one JSON object per line for every state transition, LED change,
/// sound start and end, capture, saved or discarded photo, setting change and error, each with a
/// monotonic timestamp in microseconds (`t_us`). The README documents the format.
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

    private let fd: Int32
    private let ownsDescriptor: Bool
    private var pending: [UInt8] = []
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
    }

    deinit {
        flush()
        if ownsDescriptor { close(fd) }
    }

    /// Writes one record of `type` at `time`.
    func record(_ type: String, at time: Instant, _ fields: [(String, Value)] = []) {
        for observer in observers { observer(type, time, fields) }
        guard fd >= 0 else { return }
        var line = "{\"t_us\":\(time.microseconds),\"type\":\(Self.quoted(type))"
        for (key, value) in fields {
            line += ",\(Self.quoted(key)):"
            switch value {
            case .string(let s): line += Self.quoted(s)
            case .int(let i): line += String(i)
            case .bool(let b): line += b ? "true" : "false"
            }
        }
        line += "}\n"
        pending += line.utf8
    }

    /// Writes the records kept since the last flush.
    func flush() {
        guard fd >= 0, !pending.isEmpty else { return }
        var offset = 0
        while offset < pending.count {
            let n = pending.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            offset += n
        }
        pending.removeAll(keepingCapacity: true)
    }

    /// `s` as a JSON string literal.
    static func quoted(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
