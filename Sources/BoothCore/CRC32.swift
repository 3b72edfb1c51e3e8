// CRC32: the IEEE 802.3 checksum (as zip and PNG use it), for export manifests and the photo index.

/// A running CRC-32 (IEEE, reflected, polynomial 0xEDB88320). Feed bytes with `update`, read `value`.
public struct CRC32: Hashable, Sendable {
    private var state: UInt32 = 0xFFFF_FFFF

    /// An empty checksum.
    public init() {}

    /// The checksum of `bytes`.
    public static func checksum<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> UInt32 {
        var crc = CRC32()
        crc.update(bytes)
        return crc.value
    }

    /// Adds `bytes`.
    public mutating func update<Bytes: Sequence<UInt8>>(_ bytes: Bytes) {
        var crc = state
        for byte in bytes {
            crc = Self.table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
        }
        state = crc
    }

    /// Adds the bytes in `buffer` (the fast path for file copies).
    public mutating func update(_ buffer: UnsafeRawBufferPointer) {
        var crc = state
        Self.table.withUnsafeBufferPointer { table in
            for byte in buffer {
                crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
            }
        }
        state = crc
    }

    /// The checksum of everything added so far.
    public var value: UInt32 { state ^ 0xFFFF_FFFF }

    /// `value` as 8 lowercase hex digits.
    public static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }

    /// A checksum written by `hex`, or nil.
    public static func parseHex(_ text: some StringProtocol) -> UInt32? {
        guard text.count == 8 else { return nil }
        return UInt32(text, radix: 16)
    }

    private static let table: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }
}
