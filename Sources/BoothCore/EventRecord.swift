// EventRecord: one line of the booth's events output, read back.

/// One line of the booth's events output (`--events-json`, the service's events file), read back: a
/// flat JSON object whose values are strings, whole numbers or booleans, as `EventsLog` writes them.
/// Anything else (a line cut by a power failure, nested values, numbers with a fraction or out of
/// Int64's range, bytes after the object) is not a record: `init?(line:)` returns nil.
public struct EventRecord: Hashable, Sendable {
    /// A field's value.
    public enum Value: Hashable, Sendable {
        case string(String)
        case int(Int64)
        case bool(Bool)
    }

    /// Every field, `t_us` and `type` included.
    public var fields: [String: Value]

    /// The record's type ("state", "photoSaved", ...); "" when it has none.
    public var type: String { string("type") ?? "" }
    /// The record's monotonic time in microseconds, if it has one.
    public var time: Int64? { int("t_us") }

    /// The string field `key`, if there is one.
    public func string(_ key: String) -> String? {
        if case .string(let value) = fields[key] { value } else { nil }
    }

    /// The whole-number field `key`, if there is one.
    public func int(_ key: String) -> Int64? {
        if case .int(let value) = fields[key] { value } else { nil }
    }

    /// A record from its fields.
    public init(fields: [String: Value]) {
        self.fields = fields
    }

    /// The record as one line (without its newline), `t_us` and `type` first, the other keys sorted.
    public var line: String {
        let first = ["t_us", "type"].filter { fields[$0] != nil }
        let rest = fields.keys.filter { $0 != "t_us" && $0 != "type" }.sorted()
        let parts = (first + rest).map { key in "\(Self.quoted(key)):\(Self.encoded(fields[key]!))" }
        return "{" + parts.joined(separator: ",") + "}"
    }

    /// `value` as JSON.
    public static func encoded(_ value: Value) -> String {
        switch value {
        case .string(let s): quoted(s)
        case .int(let i): String(i)
        case .bool(let b): b ? "true" : "false"
        }
    }

    /// `s` as a JSON string literal.
    public static func quoted(_ s: String) -> String {
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

    /// The record on `line` (without its newline), or nil when the line is not one.
    public init?(line: Substring) {
        var reader = Reader(bytes: Array(line.utf8))
        guard let fields = reader.object(), reader.atEnd else { return nil }
        self.fields = fields
    }

    /// A cursor over one line's bytes; every method returns nil on the first byte it does not expect.
    private struct Reader {
        let bytes: [UInt8]
        var index = 0

        var atEnd: Bool {
            mutating get {
                skipSpace()
                return index == bytes.count
            }
        }

        mutating func object() -> [String: Value]? {
            guard take(UInt8(ascii: "{")) else { return nil }
            var fields: [String: Value] = [:]
            if take(UInt8(ascii: "}")) { return fields }
            repeat {
                guard let key = string(), take(UInt8(ascii: ":")), let value = value() else { return nil }
                fields[key] = value
            } while take(UInt8(ascii: ","))
            return take(UInt8(ascii: "}")) ? fields : nil
        }

        private mutating func value() -> Value? {
            skipSpace()
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "\""): return string().map { .string($0) }
            case UInt8(ascii: "t"): return word("true") ? .bool(true) : nil
            case UInt8(ascii: "f"): return word("false") ? .bool(false) : nil
            default: return integer().map { .int($0) }
            }
        }

        private mutating func integer() -> Int64? {
            let negative = index < bytes.count && bytes[index] == UInt8(ascii: "-")
            if negative { index += 1 }
            var value: Int64 = 0
            let start = index
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                let digit = Int64(bytes[index] - UInt8(ascii: "0"))
                let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
                let (sum, overflow2) = times.addingReportingOverflow(negative ? -digit : digit)
                guard !overflow1, !overflow2 else { return nil }
                value = sum
                index += 1
            }
            return index > start ? value : nil
        }

        private mutating func string() -> String? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            var scalars = String.UnicodeScalarView()
            var run: [UInt8] = []
            func flush() {
                scalars.append(contentsOf: String(decoding: run, as: UTF8.self).unicodeScalars)
                run.removeAll()
            }
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                switch byte {
                case UInt8(ascii: "\""):
                    flush()
                    return String(scalars)
                case UInt8(ascii: "\\"):
                    guard index < bytes.count else { return nil }
                    let escape = bytes[index]
                    index += 1
                    flush()
                    switch escape {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"):
                        scalars.append(Unicode.Scalar(escape))
                    case UInt8(ascii: "n"): scalars.append("\n")
                    case UInt8(ascii: "r"): scalars.append("\r")
                    case UInt8(ascii: "t"): scalars.append("\t")
                    case UInt8(ascii: "b"): scalars.append("\u{8}")
                    case UInt8(ascii: "f"): scalars.append("\u{C}")
                    case UInt8(ascii: "u"):
                        guard index + 4 <= bytes.count, bytes[index..<index + 4].allSatisfy(Self.isHexDigit),
                            let code = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16)
                        else { return nil }
                        index += 4
                        // A surrogate half on its own is not a character: it reads as U+FFFD.
                        scalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
                    default: return nil
                    }
                case 0..<0x20:
                    return nil
                default:
                    run.append(byte)
                }
            }
            return nil
        }

        private static func isHexDigit(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
                UInt8(ascii: "A")...UInt8(ascii: "F"):
                true
            default: false
            }
        }

        private mutating func word(_ text: String) -> Bool {
            let expected = Array(text.utf8)
            guard index + expected.count <= bytes.count, Array(bytes[index..<index + expected.count]) == expected
            else { return false }
            index += expected.count
            return true
        }

        private mutating func take(_ byte: UInt8) -> Bool {
            skipSpace()
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        private mutating func skipSpace() {
            while index < bytes.count, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") {
                index += 1
            }
        }
    }
}
