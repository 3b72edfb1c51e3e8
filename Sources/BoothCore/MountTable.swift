// MountTable: /proc/self/mountinfo parsed, and which mounts are sticks under the media root.

/// One line of /proc/self/mountinfo.
public struct MountEntry: Hashable, Sendable {
    /// The mount's id (unique while mounted).
    public var id: Int
    /// Where it is mounted (escapes such as `\040` decoded).
    public var mountPoint: String
    /// The file system type ("vfat", "exfat", "ext4" ...).
    public var fileSystem: String
    /// The device or source ("/dev/sda1").
    public var source: String
    /// Whether it is mounted read-only.
    public var readOnly: Bool
    /// The device number "major:minor" of the mounted file system ("8:1"; `/sys/dev/block/8:1` while the
    /// block device exists).
    public var device: String

    /// An entry.
    public init(id: Int, mountPoint: String, fileSystem: String, source: String, readOnly: Bool, device: String = "") {
        (self.id, self.mountPoint, self.fileSystem, self.source, self.readOnly, self.device) = (
            id, mountPoint, fileSystem, source, readOnly, device
        )
    }
}

/// Reading /proc/self/mountinfo (see proc(5)).
public enum MountTable {
    /// The mounts in `text`; malformed lines are skipped.
    public static func parse(_ text: String) -> [MountEntry] {
        text.split(separator: "\n").compactMap { line in
            let f = line.split(separator: " ")
            guard let dash = f.firstIndex(of: "-"), dash >= 6, f.count >= dash + 3, let id = Int(f[0]) else {
                return nil
            }
            let options = f[5].split(separator: ",")
            return MountEntry(
                id: id, mountPoint: unescape(f[4]), fileSystem: String(f[dash + 1]), source: unescape(f[dash + 2]),
                readOnly: options.contains("ro"), device: String(f[2]))
        }
    }

    /// The mounts strictly below `root` (each is a stick), by mount point; a later mount on the same
    /// point hides an earlier one.
    public static func sticks(in entries: [MountEntry], under root: String) -> [String: MountEntry] {
        let prefix = root.hasSuffix("/") ? root : root + "/"
        var sticks: [String: MountEntry] = [:]
        for entry in entries where entry.mountPoint.hasPrefix(prefix) && entry.mountPoint.count > prefix.count {
            sticks[entry.mountPoint] = entry
        }
        return sticks
    }

    /// Decodes mountinfo's octal escapes (`\040` space, `\011` tab, `\012` newline, `\134` backslash).
    static func unescape(_ field: Substring) -> String {
        guard field.contains("\\") else { return String(field) }
        var bytes: [UInt8] = []
        let utf8 = Array(field.utf8)
        var i = 0
        while i < utf8.count {
            if utf8[i] == 0x5C, i + 3 < utf8.count,
                let value = UInt8(String(decoding: utf8[(i + 1)...(i + 3)], as: UTF8.self), radix: 8)
            {
                bytes.append(value)
                i += 4
            } else {
                bytes.append(utf8[i])
                i += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// What changed among the sticks since the last look.
public enum StickChange: Hashable, Sendable {
    /// A file system was mounted under the media root.
    case inserted(MountEntry)
    /// The mount at this point went away (unmounted, or the stick was pulled).
    case removed(mountPoint: String)
}

/// Follows the sticks mounted under the media root across mountinfo readings.
public struct StickTracker: Hashable, Sendable {
    /// The media root.
    public let root: String
    /// The sticks seen at the last reading, by mount point.
    public private(set) var mounted: [String: MountEntry] = [:]

    /// A tracker that has seen nothing yet (the first reading reports every stick as inserted).
    public init(root: String) {
        self.root = root
    }

    /// Takes a new mountinfo reading; returns removals first, then insertions by mount point. A stick
    /// remounted at the same point (a new mount id) is a removal and an insertion.
    public mutating func mountsChanged(_ entries: [MountEntry]) -> [StickChange] {
        let now = MountTable.sticks(in: entries, under: root)
        var changes: [StickChange] = []
        for (point, old) in mounted.sorted(by: { $0.key < $1.key }) where now[point]?.id != old.id {
            changes.append(.removed(mountPoint: point))
        }
        for (point, new) in now.sorted(by: { $0.key < $1.key }) where mounted[point]?.id != new.id {
            changes.append(.inserted(new))
        }
        mounted = now
        return changes
    }
}
