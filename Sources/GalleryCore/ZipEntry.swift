// ZipEntry: one file of a streamed ZIP, described before any of its bytes are read.

/// A file for `ZipStreamWriter`: its path in the archive, its size and its modification time, all known before the
/// file is read, so the archive's length is too (`ZipStreamWriter.length(of:)`); its CRC-32 too when the store's index
/// has it (then the file's bytes are only passed on, not summed again). The name is checked here, once:
/// an entry that exists has a name every unzip tool keeps inside the folder it extracts to.
public struct ZipEntry: Hashable, Sendable {
    /// The path in the archive, `/` between folders: `HeyLook_2026-11-22_14-03-07_000042.jpg`, or under a folder,
    /// `2026-11-22/HeyLook_2026-11-22_14-03-07_000042.jpg`. Written as UTF-8 (general purpose bit 11).
    public let name: String
    /// The number of bytes the file's data will have.
    public let size: UInt64
    /// When the file was last modified, in seconds since 1970-01-01 00:00 UTC.
    public let modified: Int64
    /// The local time zone's offset from UTC at `modified`, in seconds east (`localtime_r`'s `tm_gmtoff`): a ZIP's
    /// DOS date and time are wall-clock time. (The exact UTC time goes in an extended timestamp field too.)
    public let utcOffset: Int
    /// The CRC-32 of the file's data when known before it is read (the photo index records it at save), nil when
    /// the writer is to compute it while the data passes. A wrong one is caught by the reader's CRC check.
    public let checksum: UInt32?

    /// An entry; throws `ZipError.unsafeName` for a name that `check(name:)` refuses.
    public init(
        name: String, size: UInt64, modified: Int64, utcOffset: Int = 0, checksum: UInt32? = nil
    ) throws(ZipError) {
        try Self.check(name: name)
        (self.name, self.size, self.modified, self.utcOffset, self.checksum) = (
            name, size, modified, utcOffset, checksum
        )
    }

    /// The longest name a ZIP header can hold, in UTF-8 bytes.
    public static let maximumNameLength = 0xFFFF

    /// Refuses, as defence in depth (names come from the photo index, not from a request), a name that is empty
    /// or longer than `maximumNameLength` bytes, starts or ends with `/`, has an empty, `.` or `..` part, a
    /// backslash (a folder separator on Windows), NUL or another control character.
    public static func check(name: String) throws(ZipError) {
        func refuse(_ reason: String) throws(ZipError) { throw .unsafeName(name, reason: reason) }
        if name.isEmpty { try refuse("it is empty") }
        if name.utf8.count > maximumNameLength {
            try refuse("it is \(name.utf8.count) bytes long, more than a ZIP header holds (\(maximumNameLength))")
        }
        if name.hasPrefix("/") { try refuse("it starts with '/', an absolute path") }
        if name.hasSuffix("/") { try refuse("it ends with '/', a folder") }
        if name.utf8.contains(0) { try refuse("it contains NUL") }
        if name.utf8.contains(UInt8(ascii: "\\")) {
            try refuse("it contains a backslash, a folder separator on Windows")
        }
        if name.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) { try refuse("it contains a control character") }
        for part in name.split(separator: "/", omittingEmptySubsequences: false) {
            switch part {
            case "..": try refuse("it has a '..' part, which leads out of the folder it is extracted to")
            case ".": try refuse("it has a '.' part")
            case "": try refuse("it has an empty part ('//')")
            default: break
            }
        }
    }
}
