// GalleryConfig: the gallery's settings file, /etc/heylook/gallery.toml: the event's access code and the port.
import BoothConfig

/// The gallery's settings file (`/etc/heylook/gallery.toml`, made with a new code when the package is installed):
/// the event's access code and the port `booth gallery` listens on when run by hand (the service listens on the
/// socket systemd gives it, port 80). Every key is checked like the booth's config: an error names the line, the
/// key and what is allowed.
public struct GalleryConfig: Hashable, Sendable {
    /// Where the package installs it.
    public static let defaultPath = "/etc/heylook/gallery.toml"
    /// The code guests type; nil: none set.
    public var code: String?
    /// The port for a gallery run by hand.
    public var port = 8080

    public init(code: String? = nil, port: Int = 8080) {
        self.code = code
        self.port = port
    }

    private static let file = SettingsFile(name: "gallery config", table: "gallery")

    /// The settings in `text`.
    public init(parsing text: String) throws(ParseError) {
        for entry in try Self.file.entries(text) {
            switch (entry.path, entry.value) {
            case ("gallery.code", .string(let code)):
                if let problem = Self.codeProblem(code) {
                    throw Self.file.error(line: entry.line, "'gallery.code': \(problem)")
                }
                self.code = code
            case ("gallery.port", .integer(let port)) where (1...65535).contains(port):
                self.port = port
            case ("gallery.code", _):
                throw Self.file.error(line: entry.line, "'gallery.code' must be a string in quotes, e.g. \"K7PQ2M\"")
            case ("gallery.port", _):
                throw Self.file.error(line: entry.line, "'gallery.port' must be a whole number from 1 to 65535")
            default:
                throw Self.file.error(line: entry.line, "unknown key '\(entry.path)'; allowed in [gallery]: code, port")
            }
        }
    }

    /// Why `code` cannot be an access code, or nil: 4 to 32 letters, digits or dashes (typed on a phone).
    public static func codeProblem(_ code: String) -> String? {
        guard (4...32).contains(code.count),
            code.allSatisfy({ ($0.isLetter || $0.isNumber || $0 == "-") && $0.isASCII })
        else { return "'\(code)' is not allowed; use 4 to 32 letters (A-Z), digits or '-'" }
        return nil
    }
}
