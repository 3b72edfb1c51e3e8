// TOMLDocument: a small TOML reader for the booth's config file.
/// A small TOML reader for the booth's config file: tables, dotted table names, strings, integers,
/// floats, booleans and arrays of them, with comments. Every value remembers its line, so a
/// validation error can name where the person has to look.
public struct TOMLDocument: Sendable {
    /// A parsed value.
    public enum Value: Hashable, Sendable, CustomStringConvertible {
        /// A string.
        case string(String)
        /// An integer.
        case integer(Int)
        /// A floating-point number.
        case float(Double)
        /// `true` or `false`.
        case boolean(Bool)
        /// An array of values.
        case array([Value])

        public var description: String {
            switch self {
            case .string(let s): "\"\(s)\""
            case .integer(let i): String(i)
            case .float(let d): String(d)
            case .boolean(let b): String(b)
            case .array(let a): "[" + a.map(\.description).joined(separator: ", ") + "]"
            }
        }
    }

    /// One `key = value` line.
    public struct Entry: Hashable, Sendable {
        /// The table the key is in ("" for the top), e.g. "gpio".
        public var table: String
        /// The key within its table.
        public var key: String
        /// The value.
        public var value: Value
        /// The 1-based line of the key.
        public var line: Int

        /// `table.key`, or `key` at the top.
        public var path: String { table.isEmpty ? key : "\(table).\(key)" }
    }

    /// How deeply arrays may nest. The booth's files need one level; the bound keeps a damaged or
    /// crafted file (megabytes of `[`) from overflowing the reader's stack.
    public static let maximumNesting = 32

    /// The entries in file order.
    public private(set) var entries: [Entry] = []
    /// Each `[table]` header with its line.
    public private(set) var tables: [String: Int] = [:]

    /// Parses `text`; throws the first syntax error.
    public init(parsing text: String) throws(ParseError) {
        var reader = Reader(Array(text.unicodeScalars))
        var table = ""
        var seen: Set<String> = []
        while let _ = reader.peek() {
            reader.skipBlankAndComments()
            guard let c = reader.peek() else { break }
            let line = reader.line
            if c == "[" {
                reader.advance()
                guard reader.peek() != "[" else {
                    throw ParseError(line: line, message: "arrays of tables are not supported")
                }
                let name = try reader.dottedKey(until: "]")
                guard reader.peek() == "]" else {
                    throw ParseError(line: line, message: "expected ']' after table name")
                }
                reader.advance()
                try reader.endOfLine()
                guard tables[name] == nil else {
                    throw ParseError(line: line, message: "table [\(name)] appears twice")
                }
                tables[name] = line
                table = name
                continue
            }
            let key = try reader.dottedKey(until: "=")
            guard reader.peek() == "=" else {
                throw ParseError(line: line, message: "expected '=' after key '\(key)'")
            }
            reader.advance()
            reader.skipSpaces()
            let value = try reader.value()
            try reader.endOfLine()
            let entry = Entry(table: table, key: key, value: value, line: line)
            guard seen.insert(entry.path).inserted else {
                throw ParseError(line: line, message: "key '\(entry.path)' is set twice")
            }
            entries.append(entry)
        }
    }

    private struct Reader {
        let scalars: [Unicode.Scalar]
        var index = 0
        var line = 1

        init(_ scalars: [Unicode.Scalar]) { self.scalars = scalars }

        func peek() -> Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

        mutating func advance() {
            if scalars[index] == "\n" { line += 1 }
            index += 1
        }

        mutating func skipSpaces() {
            while let c = peek(), c == " " || c == "\t" { advance() }
        }

        mutating func skipBlankAndComments() {
            while let c = peek() {
                if c == " " || c == "\t" || c == "\n" || c == "\r" {
                    advance()
                } else if c == "#" {
                    while let d = peek(), d != "\n" { advance() }
                } else {
                    return
                }
            }
        }

        mutating func endOfLine() throws(ParseError) {
            skipSpaces()
            if peek() == "#" { while let d = peek(), d != "\n" { advance() } }
            if peek() == "\r" { advance() }
            guard let c = peek() else { return }
            guard c == "\n" else { throw ParseError(line: line, message: "unexpected '\(c)' after the value") }
            advance()
        }

        mutating func dottedKey(until terminator: Unicode.Scalar) throws(ParseError) -> String {
            var parts: [String] = []
            while true {
                skipSpaces()
                var part = ""
                if peek() == "\"" {
                    part = try basicString()
                } else {
                    while let c = peek(), c.properties.isAlphabetic || ("0"..."9").contains(c) || c == "_" || c == "-" {
                        part.unicodeScalars.append(c)
                        advance()
                    }
                }
                guard !part.isEmpty else { throw ParseError(line: line, message: "expected a key name") }
                parts.append(part)
                skipSpaces()
                if peek() == "." {
                    advance()
                    continue
                }
                guard peek() == terminator else {
                    let found = peek().map { "'\($0)'" } ?? "the end of the file"
                    throw ParseError(line: line, message: "expected '\(terminator)' but found \(found)")
                }
                return parts.joined(separator: ".")
            }
        }

        mutating func value(depth: Int = 0) throws(ParseError) -> Value {
            guard let c = peek() else { throw ParseError(line: line, message: "expected a value") }
            switch c {
            case "\"": return .string(try basicString())
            case "'": return .string(try literalString())
            case "[": return try array(depth: depth + 1)
            case "t", "f": return try boolean()
            default: return try number()
            }
        }

        mutating func basicString() throws(ParseError) -> String {
            advance()
            var s = ""
            while let c = peek() {
                advance()
                switch c {
                case "\"": return s
                case "\n": throw ParseError(line: line - 1, message: "string not closed on its line")
                case "\\":
                    guard let e = peek() else { break }
                    advance()
                    switch e {
                    case "n": s += "\n"
                    case "t": s += "\t"
                    case "\"": s += "\""
                    case "\\": s += "\\"
                    default: throw ParseError(line: line, message: "unknown escape '\\\(e)' in a string")
                    }
                default: s.unicodeScalars.append(c)
                }
            }
            throw ParseError(line: line, message: "string not closed")
        }

        mutating func literalString() throws(ParseError) -> String {
            advance()
            var s = ""
            while let c = peek() {
                advance()
                if c == "'" { return s }
                if c == "\n" { throw ParseError(line: line - 1, message: "string not closed on its line") }
                s.unicodeScalars.append(c)
            }
            throw ParseError(line: line, message: "string not closed")
        }

        mutating func array(depth: Int) throws(ParseError) -> Value {
            guard depth <= TOMLDocument.maximumNesting else {
                throw ParseError(
                    line: line,
                    message:
                        "arrays nested deeper than \(TOMLDocument.maximumNesting) levels; the booth's values need at most one: remove the extra '['"
                )
            }
            advance()
            var items: [Value] = []
            while true {
                skipBlankAndComments()
                if peek() == "]" {
                    advance()
                    return .array(items)
                }
                items.append(try value(depth: depth))
                skipBlankAndComments()
                if peek() == "," {
                    advance()
                } else if peek() != "]" {
                    throw ParseError(line: line, message: "expected ',' or ']' in an array")
                }
            }
        }

        mutating func boolean() throws(ParseError) -> Value {
            let word = bareWord()
            switch word {
            case "true": return .boolean(true)
            case "false": return .boolean(false)
            default: throw ParseError(line: line, message: "'\(word)' is not a value (strings need quotes)")
            }
        }

        mutating func number() throws(ParseError) -> Value {
            let word = String(bareWord().filter { $0 != "_" })
            if let i = Int(word) { return .integer(i) }
            if word.contains("."), let d = Double(word), d.isFinite { return .float(d) }
            throw ParseError(line: line, message: "'\(word)' is not a value (strings need quotes)")
        }

        mutating func bareWord() -> String {
            var s = ""
            while let c = peek(), !" \t\r\n,]#".unicodeScalars.contains(c) {
                s.unicodeScalars.append(c)
                advance()
            }
            return s
        }
    }
}
