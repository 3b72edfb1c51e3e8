// DurabilityModel: what a power cut could take away, given the file system calls made so far.

/// Follows a sequence of file system calls and knows, after each, what a power cut would keep under
/// POSIX's promises alone (no file system's kindness assumed): a file's content survives once it was
/// fsynced after its last write; a name's creation, rename or removal survives once its folder was
/// fsynced afterwards. It flags a rename that gives a final name to content not yet durable (after a
/// cut the name could hold a partial or empty file), and answers whether a path is durable (name and
/// content), which a test asks where the code under test says "saved".
public struct DurabilityModel: Sendable {
    /// A file's content: durable, or written since its last fsync.
    private struct Content: Sendable {
        var durable: Bool
    }

    /// Content by path, as the names are now.
    private var files: [String: Content] = [:]
    /// Per folder, the names whose creation, rename or removal is not durable yet.
    private var pendingNames: [String: Set<String>] = [:]
    /// What went wrong, in order.
    public private(set) var violations: [String] = []

    /// An empty model.
    public init() {}

    /// `path` was opened; `creating` when the call could create it (O_CREAT).
    public mutating func opened(_ path: String, creating: Bool) {
        guard files[path] == nil else { return }
        files[path] = Content(durable: !creating)
        if creating { pendingNames[Self.folder(of: path), default: []].insert(Self.name(of: path)) }
    }

    /// The folder `path` was made: it survives a power cut once its parent is fsynced (on FAT that
    /// fsync also writes the new folder's own first cluster).
    public mutating func madeFolder(_ path: String) {
        files[path] = Content(durable: true)
        pendingNames[Self.folder(of: path), default: []].insert(Self.name(of: path))
    }

    /// Bytes were written to `path`.
    public mutating func wrote(_ path: String) {
        files[path, default: Content(durable: false)].durable = false
    }

    /// `path` (a file or a folder) was fsynced.
    public mutating func synced(_ path: String) {
        if pendingNames[path] != nil { pendingNames[path] = [] }
        if files[path] != nil { files[path]?.durable = true }
    }

    /// `from` was renamed to `to` (replacing it, or not).
    public mutating func renamed(_ from: String, to: String) {
        if let content = files[from], !content.durable {
            violations.append("\(to): renamed from \(Self.name(of: from)) before its content was fsynced")
        }
        files[to] = files.removeValue(forKey: from) ?? Content(durable: true)
        pendingNames[Self.folder(of: from), default: []].insert(Self.name(of: from))
        pendingNames[Self.folder(of: to), default: []].insert(Self.name(of: to))
    }

    /// `path` was removed.
    public mutating func removed(_ path: String) {
        files[path] = nil
        pendingNames[Self.folder(of: path), default: []].insert(Self.name(of: path))
    }

    /// Why `path` would not survive a power cut now, or nil when it would (its content fsynced since
    /// its last write, and its name's last change made durable by an fsync of its folder).
    public func whyNotDurable(_ path: String) -> String? {
        guard let content = files[path] else { return "\(path): never written" }
        if !content.durable { return "\(path): content written since its last fsync" }
        if pendingNames[Self.folder(of: path)]?.contains(Self.name(of: path)) == true {
            return "\(path): its name is not durable (no fsync of its folder since)"
        }
        return nil
    }

    /// Why `path`'s removal or rename away would not survive a power cut now, or nil when it would.
    public func whyNotGone(_ path: String) -> String? {
        if files[path] != nil { return "\(path): still there" }
        if pendingNames[Self.folder(of: path)]?.contains(Self.name(of: path)) == true {
            return "\(path): its removal is not durable (no fsync of its folder since)"
        }
        return nil
    }

    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    static func name(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }
}
