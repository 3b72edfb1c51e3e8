// ConfigFile+Field: one config value being checked, with the checks `ConfigFile` applies to each key.
import BoothConfig
import BoothTime

extension ConfigFile {
    /// One value being checked, able to name itself in an error.
    struct Field {
        var entry: TOMLDocument.Entry
        var value: TOMLDocument.Value

        init(entry: TOMLDocument.Entry, value: TOMLDocument.Value? = nil) {
            self.entry = entry
            self.value = value ?? entry.value
        }

        func error(_ message: String) -> ParseError {
            ConfigFile.problem(line: entry.line, key: entry.path, message)
        }

        func integer(in range: ClosedRange<Int>) throws(ParseError) -> Int {
            guard case .integer(let i) = value else {
                throw error("expected a whole number from \(range.lowerBound) to \(range.upperBound), found \(value)")
            }
            guard range.contains(i) else {
                throw error("\(i) is out of range; allowed: \(range.lowerBound) to \(range.upperBound)")
            }
            return i
        }

        func number(in range: ClosedRange<Double>) throws(ParseError) -> Double {
            let d: Double
            switch value {
            case .integer(let i): d = Double(i)
            case .float(let f): d = f
            default: throw error("expected a number from \(range.lowerBound) to \(range.upperBound), found \(value)")
            }
            guard range.contains(d) else {
                throw error("\(d) is out of range; allowed: \(range.lowerBound) to \(range.upperBound)")
            }
            return d
        }

        /// A number of seconds as a duration, to the nanosecond.
        func seconds(in range: ClosedRange<Double>) throws(ParseError) -> Duration {
            .seconds(toTheNanosecond: try number(in: range))
        }

        func boolean() throws(ParseError) -> Bool {
            guard case .boolean(let b) = value else { throw error("expected true or false, found \(value)") }
            return b
        }

        func nonEmptyString(orInteger: Bool = false) throws(ParseError) -> String {
            if orInteger, case .integer(let i) = value, i >= 0 { return String(i) }
            guard case .string(let s) = value, !s.isEmpty else {
                throw error("expected a non-empty string in quotes, found \(value)")
            }
            return s
        }

        /// A CUPS queue's name, or "" for CUPS's default queue.
        func queueName() throws(ParseError) -> String {
            guard case .string(let s) = value else { throw error("expected a queue name in quotes, found \(value)") }
            guard !s.contains(where: { $0 == " " || $0 == "/" || $0 == "#" || $0.isNewline }) else {
                throw error("'\(s)' is no CUPS queue name (no spaces, '/' or '#'; `lpstat -p` lists the queues)")
            }
            return s
        }

        func path() throws(ParseError) -> String {
            let s = try nonEmptyString()
            guard s.hasPrefix("/") else { throw error("'\(s)' must be an absolute path (starting with '/')") }
            return s
        }

        /// A PNG file's absolute path, or "" for none; the file itself is checked when the booth starts.
        func logoPath() throws(ParseError) -> String {
            guard case .string(let s) = value else {
                throw error("expected a PNG file's path in quotes, e.g. \"/etc/heylook/logo.png\", or \"\" for none")
            }
            guard s.isEmpty || s.hasPrefix("/") else {
                throw error(
                    "'\(s)' must be an absolute path (starting with '/'), e.g. \"/etc/heylook/logo.png\" (the booth's "
                        + "service can read /etc/heylook/, not /home or /tmp)")
            }
            guard !s.hasSuffix("/") else { throw error("'\(s)' is a folder: name the PNG file in it") }
            return s
        }

        /// Keys by the kernel's names (`KeyCode`), at most 8.
        func keys() throws(ParseError) -> [KeyCode] {
            var keys: [KeyCode] = []
            for name in try stringArray(count: 0...8, example: "[\"KEY_VOLUMEUP\", \"KEY_ENTER\"]") {
                guard let key = KeyCode(name: name) else {
                    let close = KeyCode.suggestions(for: name)
                    throw error(
                        "'\(name)' is no key the kernel names"
                            + (close.isEmpty ? "" : " (did you mean \(close.joined(separator: ", "))?)")
                            + "; use the names of linux/input-event-codes.h, e.g. \"KEY_VOLUMEUP\", \"KEY_ENTER\" "
                            + "(`booth remote keys` shows the names a remote sends)")
                }
                guard !keys.contains(key) else { throw error("\(key) is listed twice") }
                keys.append(key)
            }
            return keys
        }

        func stringArray(
            count: ClosedRange<Int>, example: String = "[\"Duck\", \"Cow\"]"
        ) throws(ParseError) -> [String] {
            guard case .array(let items) = value else {
                throw error("expected an array of names in quotes, e.g. \(example)")
            }
            var names: [String] = []
            for item in items {
                guard case .string(let s) = item else { throw error("expected names in quotes, found \(item)") }
                names.append(s)
            }
            guard count.contains(names.count) else {
                throw error("expected \(count.lowerBound) to \(count.upperBound) names, found \(names.count)")
            }
            return names
        }

        func choice<T>(_ allowed: [String], _ make: (String) -> T?, integers: Bool = false) throws(ParseError) -> T {
            var text: String?
            if case .string(let s) = value { text = s }
            if integers, case .integer(let i) = value { text = String(i) }
            guard let text, allowed.contains(text), let result = make(text) else {
                throw error("\(value) is not allowed; allowed: \(allowed.joined(separator: ", "))")
            }
            return result
        }

        func line() throws(ParseError) -> BoothSettings.Line {
            switch value {
            case .integer(let i) where (0...511).contains(i): return .offset(i)
            case .string(let s) where !s.isEmpty: return .name(s)
            default:
                throw error("expected a line offset (BCM number, e.g. 17) or a line name in quotes, found \(value)")
            }
        }
    }
}
