// MountUnitName: the name systemd gives the mount unit of a mount point (`systemd-escape --path --suffix=mount`).

/// systemd's unit name for a path, as `systemd-escape --path` makes it (systemd.unit(5), "String
/// Escaping for Inclusion in Unit Names"): redundant slashes and `.` components dropped, the leading
/// and trailing `/` removed, each `/` written `-`, and every byte that is not an ASCII letter, digit,
/// `:`, `_` or `.` (a leading `.` too) written `\xNN`. The root is `-`.
public enum MountUnitName {
    /// The mount unit of `mountPoint`: `/media/heylook/1234-ABCD` → `media-heylook-1234\x2dABCD.mount`.
    public static func forMountPoint(_ mountPoint: String) -> String {
        escapePath(mountPoint) + ".mount"
    }

    /// `path` escaped as systemd escapes paths (without a suffix).
    public static func escapePath(_ path: String) -> String {
        let components = path.split(separator: "/").filter { $0 != "." }
        guard !components.isEmpty else { return "-" }
        var escaped = ""
        for (index, component) in components.enumerated() {
            if index > 0 { escaped += "-" }
            for (offset, byte) in component.utf8.enumerated() {
                let isLetterOrDigit =
                    (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                let plain =
                    isLetterOrDigit || byte == 0x3A || byte == 0x5F || (byte == 0x2E && !(index == 0 && offset == 0))
                if plain {
                    escaped.unicodeScalars.append(Unicode.Scalar(byte))
                } else {
                    let hex = String(byte, radix: 16)
                    escaped += "\\x" + (hex.count == 1 ? "0" + hex : hex)
                }
            }
        }
        return escaped
    }
}
