// ExportManifest: the list of photos on a stick, by booth, with sizes and checksums.
import Checksum
import PhotoModel

/// `<stick>/<export folder>/manifest.txt`: which booth put which photo where, with its size, CRC-32 and SHA-256.
/// A stick used on several booths keeps their photos apart by booth id. Version 1 (no SHA-256) is still read; its
/// entries gain their SHA-256 when the booth next verifies them.
///
/// Besides photos it lists the print layouts (`layouts/…`) and, with `export.raw`, the photos' companions (a RAW
/// beside its photo, its source a companion's name in the store, `…_000042.cr2`): any FAT-safe source name is read.
/// An older booth reads such entries too and, finding no kept photo of that name, keeps them as they are (their file
/// stays claimed and is never overwritten), never reads them back nor records them in its index.
///
/// The manifest is never trusted blindly: entries whose file is missing or has another size are
/// dropped, and a damaged manifest is replaced by one rebuilt from the files (see `ExportPlan`).
public struct ExportManifest: Hashable, Sendable {
    /// One photo (or layout, or companion) on the stick.
    public struct Entry: Hashable, Sendable {
        /// The id of the booth that took it.
        public var booth: String
        /// Its file name in that booth's store.
        public var source: String
        /// Where it is, relative to the export folder: `YYYY-MM-DD/name`.
        public var path: String
        /// Size in bytes.
        public var size: Int64
        /// CRC-32 of the content.
        public var checksum: UInt32
        /// SHA-256 of the content (32 bytes); nil in an entry of a version 1 manifest.
        public var sha256: [UInt8]?

        /// An entry.
        public init(
            booth: String, source: String, path: String, size: Int64, checksum: UInt32, sha256: [UInt8]? = nil
        ) {
            (self.booth, self.source, self.path, self.size, self.checksum, self.sha256) = (
                booth, source, path, size, checksum, sha256
            )
        }

        /// An entry for a copy with `digest`.
        public init(booth: String, source: String, path: String, digest: ContentDigest) {
            self.init(
                booth: booth, source: source, path: path, size: digest.size, checksum: digest.crc32,
                sha256: digest.sha256)
        }

        /// Whether a file with `digest` is the content this entry records: size, CRC-32 and, when the entry has
        /// one, SHA-256.
        public func matches(_ digest: ContentDigest) -> Bool {
            digest.size == size && digest.crc32 == checksum && (sha256 == nil || sha256 == digest.sha256)
        }
    }

    /// This stick's id (made up on first export; booths record it in their index).
    public var stickID: String
    /// The photos, in the order they were added.
    public var entries: [Entry]

    /// A manifest.
    public init(stickID: String, entries: [Entry] = []) {
        self.stickID = stickID
        self.entries = entries
    }

    /// Whether `path` is `folder/name` with both parts FAT-safe and not hidden: the only shape the
    /// exporter writes, so a manifest can never point outside the export folder.
    public static func isValidPath(_ path: some StringProtocol) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        return parts.count == 2 && parts.allSatisfy { FATName.isSafe(String($0)) && !$0.hasPrefix(".") }
    }

    /// The manifest as text (version 2), ending in a line with the CRC-32 of everything before it.
    public func encode() -> String {
        var text = "\(Self.header)\nstick \(stickID)\n"
        for e in entries {
            let sha = e.sha256.map(SHA256.hex) ?? "-"
            text += "file \(e.booth) \(e.source) \(e.path) \(e.size) \(CRC32.hex(e.checksum)) \(sha)\n"
        }
        return text + "end \(CRC32.hex(CRC32.checksum(text.utf8)))\n"
    }

    /// The manifest in `text`, or nil when it is damaged in any way.
    public static func decode(_ text: String) -> ExportManifest? {
        let version: Int
        let lines: [Substring]
        if let body = PhotoIndex.verifiedBody(text, header: header) {
            (version, lines) = (2, body)
        } else if let body = PhotoIndex.verifiedBody(text, header: firstHeader) {
            (version, lines) = (1, body)
        } else {
            return nil
        }
        guard lines.count >= 2 else { return nil }
        let stick = lines[1].split(separator: " ")
        guard stick.count == 2, stick[0] == "stick", StoreID.isValid(stick[1]) else { return nil }
        var entries: [Entry] = []
        for line in lines.dropFirst(2) {
            let f = line.split(separator: " ", omittingEmptySubsequences: false)
            guard f.count == 5 + version, f[0] == "file", StoreID.isValid(f[1]), FATName.isSafe(String(f[2])),
                isValidPath(f[3]), let size = Int64(f[4]), size >= 0, let checksum = CRC32.parseHex(f[5])
            else { return nil }
            var sha256: [UInt8]?
            if version == 2, f[6] != "-" {
                guard let hash = SHA256.parseHex(f[6]) else { return nil }
                sha256 = hash
            }
            entries.append(
                Entry(
                    booth: String(f[1]), source: String(f[2]), path: String(f[3]), size: size, checksum: checksum,
                    sha256: sha256))
        }
        return ExportManifest(stickID: String(stick[1]), entries: entries)
    }

    /// The stick id in a damaged manifest's text, if its `stick` line survived.
    public static func salvageStickID(_ text: String) -> String? {
        let lines = text.split(separator: "\n")
        guard lines.count >= 2 else { return nil }
        let f = lines[1].split(separator: " ")
        return f.count == 2 && f[0] == "stick" && StoreID.isValid(f[1]) ? String(f[1]) : nil
    }

    static let header = "heylook-manifest 2"
    /// Version 1: no SHA-256 column.
    static let firstHeader = "heylook-manifest 1"
}
