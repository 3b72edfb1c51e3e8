// CRC32: the IEEE 802.3 checksum (as zip and PNG use it), for export manifests and the photo index.
import CZlib

/// A running CRC-32 (IEEE, reflected, polynomial 0xEDB88320), computed by zlib's `crc32`. Feed bytes
/// with `update`, read `value`.
public struct CRC32: Hashable, Sendable {
    private var crc: UInt = 0

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
        let done: Void? = bytes.withContiguousStorageIfAvailable { update(UnsafeRawBufferPointer($0)) }
        if done == nil { Array(bytes).withUnsafeBytes { update($0) } }
    }

    /// Adds the bytes in `buffer`. The C function is zlib's `crc32`.
    public mutating func update(_ buffer: UnsafeRawBufferPointer) {
        guard var base = buffer.baseAddress?.assumingMemoryBound(to: Bytef.self) else { return }
        var left = buffer.count
        while left > 0 {
            let chunk = min(left, Int(UInt32.max))
            crc = crc32(crc, base, uInt(chunk))
            base += chunk
            left -= chunk
        }
    }

    /// The checksum of everything added so far.
    public var value: UInt32 { UInt32(truncatingIfNeeded: crc) }

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
}
