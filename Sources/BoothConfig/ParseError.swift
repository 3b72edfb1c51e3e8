// ParseError: what is wrong in a text the booth reads; the one error of its config, settings and script parsers.

/// What is wrong in a text the booth reads (its config, the gallery's and the hotspot's settings, a simulator
/// script, TOML itself): the file as messages name it, the 1-based line, the key or the line's text there, and what
/// is wrong and what is allowed. It reads "config: line 3: 'sound.volume': …", each part present.
public struct ParseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file as messages name it ("config", "gallery config", "script"); nil for TOML's own errors, which the
    /// file's reader names (`inFile`).
    public var file: String?
    /// The 1-based line, or nil when the problem is a missing or inconsistent whole.
    public var line: Int?
    /// The key, as `table.key`.
    public var key: String?
    /// The line's text, where the line has no key (a script's command).
    public var text: String?
    /// What is wrong and what is allowed.
    public var message: String

    public init(file: String? = nil, line: Int?, key: String? = nil, text: String? = nil, message: String) {
        self.file = file
        self.line = line
        self.key = key
        self.text = text
        self.message = message
    }

    /// The same error, named as `file`'s.
    public func inFile(_ file: String) -> ParseError {
        var named = self
        named.file = file
        return named
    }

    public var description: String {
        [file, line.map { "line \($0)" }, key.map { "'\($0)'" }, text.map { "'\($0)'" }, message]
            .compactMap { $0 }.joined(separator: ": ")
    }
}
