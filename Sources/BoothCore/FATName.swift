// FATName: which file names a FAT or exFAT stick can hold unchanged.

/// The FAT/exFAT long-name rules, so a name written to a stick reads back the same on every computer.
public enum FATName {
    /// Characters FAT and exFAT refuse in a long name.
    static let forbidden: Set<Character> = ["\"", "*", "/", ":", "<", ">", "?", "\\", "|"]
    /// Names Windows reserves for devices, in any case and with any extension.
    static let reserved = Set(["CON", "PRN", "AUX", "NUL"] + (1...9).flatMap { ["COM\($0)", "LPT\($0)"] })

    /// Whether `name` is a valid FAT/exFAT long name: 1...255 UTF-16 units, no control or forbidden
    /// characters, no trailing dot or space, not "." / ".." and no reserved device name.
    public static func isSafe(_ name: String) -> Bool {
        guard !name.isEmpty, name.utf16.count <= 255, name != ".", name != ".." else { return false }
        guard let last = name.last, last != ".", last != " " else { return false }
        for scalar in name.unicodeScalars where scalar.value < 0x20 || scalar.value == 0x7F { return false }
        guard !name.contains(where: { forbidden.contains($0) }) else { return false }
        let stem = name.split(separator: ".", maxSplits: 1).first.map(String.init) ?? name
        return !reserved.contains(stem.uppercased())
    }

    /// The largest file FAT32 can hold: 4 GiB - 1 byte.
    public static let maximumFileSize: Int64 = 0xFFFF_FFFF
}
