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
