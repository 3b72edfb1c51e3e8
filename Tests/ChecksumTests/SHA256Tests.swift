// SHA256Tests: the hash matches FIPS 180-4's examples and sha256sum, however the bytes are fed.
import Foundation
import Testing

@testable import Checksum

@Test func sha256MatchesTheStandardExamples() {
    #expect(
        SHA256.hex(SHA256.hash(Array("abc".utf8)))
            == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    #expect(
        SHA256.hex(SHA256.hash([UInt8]()))
            == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    #expect(
        SHA256.hex(SHA256.hash(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
            == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    #expect(
        SHA256.hex(SHA256.hash([UInt8](repeating: 0x61, count: 1_000_000)))
            == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
}

@Test func sha256HexRoundTripsAndRefusesOtherText() {
    let hash = SHA256.hash(Array("abc".utf8))
    #expect(SHA256.parseHex(SHA256.hex(hash)) == hash)
    #expect(SHA256.parseHex(String(SHA256.hex(hash).dropLast())) == nil)
    #expect(SHA256.parseHex(SHA256.hex(hash).uppercased()) == nil)
    #expect(SHA256.parseHex(String(repeating: "g", count: 64)) == nil)
}

/// Fed in pieces of every awkward size (around the 64-byte block and the padding's 56-byte edge), the hash is
/// the one `sha256sum` (coreutils, an independent implementation) gives for the same bytes.
@Test func sha256IsSha256sumsHashInAnyPieces() throws {
    var rng = SystemRandomNumberGenerator()
    for length in [0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 128, 1000, 70_001] {
        let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &rng) }
        let path = NSTemporaryDirectory() + "heylook-sha256-\(length)"
        try #require(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        process.arguments = [path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let expected = String(output.prefix(64))
        #expect(SHA256.hex(SHA256.hash(bytes)) == expected, "length \(length)")
        for piece in [1, 3, 63, 64, 65, 4096] {
            var sha = SHA256()
            var start = 0
            while start < bytes.count {
                let end = min(bytes.count, start + piece)
                bytes[start..<end].withUnsafeBytes { sha.update($0) }
                start = end
            }
            #expect(SHA256.hex(sha.finish()) == expected, "length \(length) in pieces of \(piece)")
        }
    }
}
