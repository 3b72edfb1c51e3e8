// ZIP64Rule: which records of a streamed ZIP need the ZIP64 extensions (APPNOTE 4.3.9, 4.4.1.4, 4.5.3).

/// Decides where an archive needs ZIP64: a size or offset that does not fit in the 32-bit field, or equals its
/// all-ones value, which readers take as "look in the ZIP64 field"; likewise an entry count against the 16-bit
/// field. `force` (for tests and readers' checks) makes every entry and the end of the archive ZIP64.
public struct ZIP64Rule: Hashable, Sendable {
    /// The value a 32-bit size or offset field holds when the real value is in a ZIP64 field.
    public static let marker32: UInt64 = 0xFFFF_FFFF
    /// The value a 16-bit count field holds when the real count is in the ZIP64 end of central directory record.
    public static let marker16 = 0xFFFF

    /// Every record ZIP64, whatever the numbers.
    public var force: Bool

    /// A rule; `force` makes every record ZIP64.
    public init(force: Bool = false) { self.force = force }

    /// A file of `size` bytes has its sizes in a ZIP64 extra field (local and central headers) and 8-byte sizes in
    /// its data descriptor.
    public func sizes(_ size: UInt64) -> Bool { force || size >= Self.marker32 }

    /// A local header at `offset` has that offset in its central header's ZIP64 extra field.
    public func offset(_ offset: UInt64) -> Bool { force || offset >= Self.marker32 }

    /// An archive of `entryCount` files whose central directory is `directorySize` bytes at `directoryOffset` ends
    /// with a ZIP64 end of central directory record and its locator before the end of central directory record.
    public func end(entryCount: Int, directorySize: UInt64, directoryOffset: UInt64) -> Bool {
        force || entryCount >= Self.marker16 || directorySize >= Self.marker32 || directoryOffset >= Self.marker32
    }
}
