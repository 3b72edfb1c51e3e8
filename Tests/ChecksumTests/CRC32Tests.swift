// CRC32Tests: the checksum matches the standard check value and is the same however bytes are fed.
import Testing

@testable import Checksum

@Test func crc32MatchesTheStandardCheckValue() {
    #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
    #expect(CRC32.checksum([UInt8]()) == 0)
    #expect(CRC32.hex(0xCBF4_3926) == "cbf43926")
    #expect(CRC32.hex(0x1) == "00000001")
    #expect(CRC32.parseHex("cbf43926") == 0xCBF4_3926)
    #expect(CRC32.parseHex("cbf4392") == nil)
}

@Test func crc32IsTheSameInPieces() {
    let bytes = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
    var crc = CRC32()
    bytes[..<1234].withUnsafeBytes { crc.update($0) }
    crc.update(bytes[1234...])
    #expect(crc.value == CRC32.checksum(bytes))
}

/// A bit-at-a-time CRC-32, the definition itself, to check zlib's against.
private func referenceCRC32(_ bytes: some Sequence<UInt8>) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
    }
    return crc ^ 0xFFFF_FFFF
}

@Test func crc32MatchesTheDefinitionAtAnyLengthAndAlignment() {
    var rng = SystemRandomNumberGenerator()
    let bytes = (0..<4099).map { _ in UInt8.random(in: 0...255, using: &rng) }
    for start in 0..<9 {
        for end in [start, start + 1, start + 7, start + 8, start + 9, start + 63, 4099] {
            var fast = CRC32()
            bytes[start..<end].withUnsafeBytes { fast.update($0) }
            #expect(fast.value == referenceCRC32(bytes[start..<end]))
        }
    }
    // A sequence without contiguous storage takes the same path.
    #expect(CRC32.checksum(bytes.lazy.map { $0 }) == referenceCRC32(bytes))
}
