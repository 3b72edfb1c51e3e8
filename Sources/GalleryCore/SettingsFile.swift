// SettingsFile: the small TOML files of the gallery and the hotspot: one table each, errors naming file and line.
import BoothConfig

/// A settings file of one table (`[gallery]` in gallery.toml, `[hotspot]` in hotspot.toml), read like the booth's
/// config: an error names the file, the line and what is allowed.
public struct SettingsFile: Sendable {
    /// How the file is named in messages.
    let name: String
    /// Its one table.
    let table: String

    /// The entries of `text`, all in `table` (any other table is an error).
    func entries(_ text: String) throws(ParseError) -> [TOMLDocument.Entry] {
        let document: TOMLDocument
        do {
            document = try TOMLDocument(parsing: text)
        } catch {
            throw error.inFile(name)
        }
        for (other, line) in document.tables where other != table {
            throw self.error(line: line, "unknown table [\(other)]; allowed: [\(table)]")
        }
        return document.entries
    }

    /// An error at `line` of this file.
    func error(line: Int?, _ message: String) -> ParseError { ParseError(file: name, line: line, message: message) }
}
