// ZipError: why a file cannot go in a streamed ZIP, or why the stream had to stop.

/// A failure of `ZipEntry` or `ZipStreamWriter`; each message says what happened and what to do.
public enum ZipError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The name could be read as a path outside the archive's folder, or is not a plain file name.
    case unsafeName(String, reason: String)
    /// The file had another size when it was streamed than when the archive was planned (it changed on disk):
    /// `read` bytes came where `declared` were announced (for too many, the count when the excess was seen).
    case sizeChanged(name: String, declared: UInt64, read: UInt64)
    /// The writer's calls came in an order the format cannot follow (a bug in the caller).
    case outOfOrder(String)

    public var description: String {
        switch self {
        case .unsafeName(let name, let reason):
            "the name \(quoted(name)) cannot go in a ZIP: \(reason); name files in an archive by the photo index only"
        case .sizeChanged(let name, let declared, let read):
            "\(name) changed while it was being zipped: its size was \(declared) bytes when the download began but "
                + "\(read) bytes were read; the download stopped there, so no corrupt ZIP is saved: download it again"
        case .outOfOrder(let what):
            "ZIP writer used out of order: \(what)"
        }
    }
}

/// `name` in quotes, with control characters shown as `\u{…}` so a message stays on one line.
private func quoted(_ name: String) -> String {
    var out = "\""
    for scalar in name.unicodeScalars {
        out += scalar.value < 0x20 || scalar.value == 0x7F ? "\\u{\(String(scalar.value, radix: 16))}" : String(scalar)
    }
    return out + "\""
}
