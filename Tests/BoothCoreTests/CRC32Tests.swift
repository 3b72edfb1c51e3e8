// CRC32Tests: the checksum matches the standard check value and is the same however bytes are fed.
import Testing

@testable import BoothCore

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

@Test func crc32FastPathMatchesBytewiseAtAnyLengthAndAlignment() {
    var rng = SystemRandomNumberGenerator()
    let bytes = (0..<4099).map { _ in UInt8.random(in: 0...255, using: &rng) }
    for start in 0..<9 {
        for end in [start, start + 1, start + 7, start + 8, start + 9, start + 63, 4099] {
            var fast = CRC32()
            bytes[start..<end].withUnsafeBytes { fast.update($0) }
            #expect(fast.value == CRC32.checksum(Array(bytes[start..<end])))
        }
    }
}
