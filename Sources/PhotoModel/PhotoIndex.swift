// PhotoIndex: the photo store's record of every photo's state and the sticks it was exported to.
import Checksum

/// What the store knows about its photos beyond the files themselves: kept or discarded, size,
/// checksum (once known) and the sticks each photo was copied to.
///
/// The files are the truth: the index is reconciled with a listing at every start and rebuilt from it
/// when missing or damaged (then export records are lost, which only makes cleanup more careful).
public struct PhotoIndex: Hashable, Sendable {
    /// Where a photo is.
    public enum State: String, Hashable, Sendable {
        /// In the photos folder: exported to sticks.
        case kept
        /// Moved to the discarded folder (a retake): never exported, never deleted.
        case discarded
    }

    /// One photo.
    public struct Entry: Hashable, Sendable {
        /// The file name (a `PhotoName`).
        public var name: String
        /// Kept or discarded.
        public var state: State
        /// Size in bytes.
        public var size: Int64
        /// CRC-32 of the content, once computed (at export).
        public var checksum: UInt32?
        /// Ids of the sticks holding a verified copy.
        public var exportedTo: Set<String>
        /// When an undated photo was taken, on its boot's monotonic clock (nil for a dated photo, or one saved
        /// before this was recorded): a phone's `ClockMark` later in that boot dates it.
        public var taken: BootInstant?
        /// When an undated photo was taken, in seconds since 1970 (UTC), once a `ClockMark` of its boot said
        /// (`dated(by:)`); kept with `taken`, so the date outlives the mark (gone at the next boot).
        public var dated: Int64?

        /// An entry.
        public init(
            name: String, state: State, size: Int64, checksum: UInt32? = nil, exportedTo: Set<String> = [],
            taken: BootInstant? = nil, dated: Int64? = nil
        ) {
            (self.name, self.state, self.size, self.checksum, self.exportedTo, self.taken) = (
                name, state, size, checksum, exportedTo, taken
            )
            self.dated = taken == nil ? nil : dated
        }
    }

    /// A photo file found on disk.
    public struct ListedFile: Hashable, Sendable {
        /// The file name.
        public var name: String
        /// The folder it is in.
        public var state: State
        /// Size in bytes.
        public var size: Int64

        /// A listed file.
        public init(name: String, state: State, size: Int64) {
            (self.name, self.state, self.size) = (name, state, size)
        }
    }

    /// The entries by file name.
    public private(set) var entries: [String: Entry]

    /// An index of `entries`.
    public init(_ entries: [Entry] = []) {
        self.entries = Dictionary(entries.map { ($0.name, $0) }, uniquingKeysWith: { _, last in last })
    }

    /// The entries, oldest (lowest sequence) first.
    public var sorted: [Entry] {
        // Each name's order is worked out once, not at every comparison (an index is written with every save).
        entries.values.map { (Self.order($0.name), $0) }.sorted { $0.0 < $1.0 }.map(\.1)
    }

    /// The index a listing alone implies: every photo there, nothing exported.
    public static func rebuilt(from listing: [ListedFile]) -> PhotoIndex {
        var index = PhotoIndex()
        index.reconcile(with: listing)
        return index
    }

    /// Makes the index agree with the files: adds new photos, removes vanished ones, takes each
    /// photo's folder as its state. A photo whose size changed loses its checksum and export records.
    /// Returns how many entries it added, removed or changed (0: the index already agreed). Files that
    /// are not photo names are ignored.
    @discardableResult
    public mutating func reconcile(with listing: [ListedFile]) -> Int {
        var updated: [String: Entry] = [:]
        for file in listing where PhotoName(fileName: file.name) != nil {
            if var entry = entries[file.name], entry.size == file.size {
                entry.state = file.state
                updated[file.name] = entry
            } else {
                updated[file.name] = Entry(name: file.name, state: file.state, size: file.size)
            }
        }
        defer { entries = updated }
        let names = Set(updated.keys).union(entries.keys)
        return names.filter { updated[$0] != entries[$0] }.count
    }

    /// Adds or replaces one entry.
    public mutating func record(_ entry: Entry) {
        entries[entry.name] = entry
    }

    /// Marks `name` (with content `checksum`) as copied to `stick`; false when the photo is unknown, or
    /// when the copy's checksum is not the one the photo was saved with (its bytes changed since: that
    /// copy is not the photo taken, so cleanup must never delete the photo for it).
    @discardableResult
    public mutating func markExported(_ name: String, checksum: UInt32, to stick: String) -> Bool {
        guard var entry = entries[name], entry.checksum == nil || entry.checksum == checksum else { return false }
        entry.checksum = checksum
        entry.exportedTo.insert(stick)
        entries[name] = entry
        return true
    }

    /// Takes in what another writer of the same index recorded (`booth export` run by hand beside the
    /// booth): the sticks `other` lists for a photo this index also has with the same content, the date it gave
    /// an undated photo of the same moment, and
    /// the photos only `other` knows for which `adopting` says yes (their file is there). This index's
    /// own states stay. Returns whether anything changed.
    @discardableResult
    public mutating func merge(_ other: PhotoIndex, adopting: (Entry) -> Bool) -> Bool {
        var changed = false
        for (name, theirs) in other.entries {
            guard var ours = entries[name] else {
                if adopting(theirs) {
                    entries[name] = theirs
                    changed = true
                }
                continue
            }
            guard ours.size == theirs.size else { continue }
            // A date the other writer learnt from a clock mark, for the same moment.
            if ours.dated == nil, let dated = theirs.dated, ours.taken == theirs.taken {
                ours.dated = dated
                entries[name] = ours
                changed = true
            }
            guard !theirs.exportedTo.isSubset(of: ours.exportedTo), let checksum = theirs.checksum,
                ours.checksum == nil || ours.checksum == checksum
            else { continue }
            ours.checksum = checksum
            ours.exportedTo.formUnion(theirs.exportedTo)
            entries[name] = ours
            changed = true
        }
        return changed
    }

    /// Moves a photo to `state` (a retake is discarded).
    public mutating func setState(_ name: String, _ state: State) {
        entries[name]?.state = state
    }

    /// Gives every undated photo taken in `mark`'s boot and not dated yet its date from `mark`; returns how many.
    @discardableResult
    public mutating func date(by mark: ClockMark) -> Int {
        var count = 0
        for (name, entry) in entries where entry.dated == nil {
            guard let taken = entry.taken, let seconds = mark.seconds(of: taken) else { continue }
            entries[name]?.dated = seconds
            count += 1
        }
        return count
    }

    /// Forgets a photo whose file was removed.
    public mutating func remove(_ name: String) {
        entries[name] = nil
    }

    /// Kept photos that have a verified copy on at least one stick, oldest first: the only photos
    /// cleanup may ever delete.
    public var removableWhenFull: [Entry] {
        sorted.filter { $0.state == .kept && !$0.exportedTo.isEmpty }
    }

    /// The index as text: one line per photo (`photo NAME STATE SIZE CRC STICKS`, then `BOOT@NS` for an undated
    /// photo whose moment is known, `BOOT@NS=SECONDS` once it is dated), then an `end` line with the CRC-32 of everything before it, so a torn or
    /// damaged file is recognised.
    public func encode() -> String {
        var text = "\(Self.header)\n"
        for entry in sorted {
            let checksum = entry.checksum.map(CRC32.hex) ?? "-"
            let sticks = entry.exportedTo.isEmpty ? "-" : entry.exportedTo.sorted().joined(separator: ",")
            let taken = entry.taken.map { " \($0)" + (entry.dated.map { "=\($0)" } ?? "") } ?? ""
            text += "photo \(entry.name) \(entry.state.rawValue) \(entry.size) \(checksum) \(sticks)\(taken)\n"
        }
        return text + "end \(CRC32.hex(CRC32.checksum(text.utf8)))\n"
    }

    /// The index in `text`, or nil when it is damaged in any way (the caller rebuilds it).
    public static func decode(_ text: String) -> PhotoIndex? {
        guard let body = verifiedBody(text, header: header) else { return nil }
        var entries: [Entry] = []
        for line in body.dropFirst() {
            let f = line.split(separator: " ", omittingEmptySubsequences: false)
            guard f.count == 6 || f.count == 7, f[0] == "photo", PhotoName(fileName: String(f[1])) != nil,
                let state = State(rawValue: String(f[2])), let size = Int64(f[3]), size >= 0
            else { return nil }
            let checksum: UInt32?
            if f[4] == "-" {
                checksum = nil
            } else {
                guard let value = CRC32.parseHex(f[4]) else { return nil }
                checksum = value
            }
            let sticks = f[5] == "-" ? [] : f[5].split(separator: ",").map(String.init)
            guard sticks.allSatisfy(StoreID.isValid) else { return nil }
            var taken: BootInstant?
            var dated: Int64?
            if f.count == 7 {
                let parts = f[6].split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard let moment = BootInstant.parse(parts[0]) else { return nil }
                taken = moment
                if parts.count == 2 {
                    guard let seconds = Int64(parts[1]) else { return nil }
                    dated = seconds
                }
            }
            entries.append(
                Entry(
                    name: String(f[1]), state: state, size: size, checksum: checksum, exportedTo: Set(sticks),
                    taken: taken, dated: dated))
        }
        return PhotoIndex(entries)
    }

    static let header = "heylook-index 1"

    /// The lines before a valid `end <crc>` line, starting with `header`; nil when damaged. The index and the export
    /// manifests (`ExportManifest`) share this form.
    public static func verifiedBody(_ text: String, header: String) -> [Substring]? {
        guard text.hasSuffix("\n"), let endStart = text.dropLast().lastIndex(of: "\n") else { return nil }
        let body = text[...endStart]
        let end = text[text.index(after: endStart)...].dropLast()
        guard end.hasPrefix("end "), CRC32.parseHex(end.dropFirst(4)) == CRC32.checksum(body.utf8) else { return nil }
        let lines = body.dropLast().split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.first == Substring(header) else { return nil }
        return lines
    }

    /// A photo's place in the index: its sequence number, then its name. Every name in an index is a photo name
    /// (`decode`, `reconcile` and the store's saves check), whose number stands between its last "_" and ".jpg":
    /// read from there, not by parsing the whole name, as the index is written with every save.
    private static func order(_ name: String) -> (Int, String) {
        guard name.hasSuffix(".jpg"), let underscore = name.lastIndex(of: "_") else { return (Int.max, name) }
        let digits = name[name.index(after: underscore)..<name.index(name.endIndex, offsetBy: -4)]
        return (Int(digits) ?? Int.max, name)
    }
}
