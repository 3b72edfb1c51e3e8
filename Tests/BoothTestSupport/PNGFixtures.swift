// PNGFixtures: builds PNG files byte by byte (RGBA, stored uncompressed) for the print logo's tests.
import Checksum

/// Big-endian writers for hand-made PNG files: 8-bit RGBA, the image data in zlib's stored (uncompressed) blocks.
public enum PNGFixtures {
    /// The PNG file's first 8 bytes.
    public static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    public static func be32(_ value: Int) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) }
    }

    /// A chunk: length, type, data, CRC-32 of type and data.
    public static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + data
        return be32(data.count) + typed + be32(Int(CRC32.checksum(typed)))
    }

    /// An IHDR chunk for 8-bit RGBA of `width` × `height`.
    public static func header(width: Int, height: Int) -> [UInt8] {
        chunk("IHDR", be32(width) + be32(height) + [8, 6, 0, 0, 0])
    }

    /// A `width` × `height` RGBA PNG whose pixel at x, y is `pixel(x, y)` (red, green, blue, alpha).
    public static func rgba(width: Int, height: Int, _ pixel: (Int, Int) -> [UInt8]) -> [UInt8] {
        var raw: [UInt8] = []
        for y in 0..<height {
            raw.append(0)  // filter: none
            for x in 0..<width { raw += pixel(x, y) }
        }
        // zlib: a header, stored blocks of at most 65535 bytes, the Adler-32 of the raw bytes.
        var zlib: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let count = min(65535, raw.count - offset)
            let last: UInt8 = offset + count == raw.count ? 1 : 0
            zlib += [last, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            zlib += raw[offset..<(offset + count)]
            offset += count
        } while offset < raw.count
        var (a, b) = (1, 0)
        for byte in raw { (a, b) = ((a + Int(byte)) % 65521, (b + (a + Int(byte)) % 65521) % 65521) }
        zlib += be32(b << 16 | a)
        return signature + header(width: width, height: height) + chunk("IDAT", zlib) + chunk("IEND", [])
    }
}
