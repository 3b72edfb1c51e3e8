// FileSpanTests: a span's marker read back only with its own secret and at its exact length.
import Testing

@testable import GalleryCore

/// Faults planted and the tests that failed: the secret not compared (other secret), the length not checked (one
/// byte more or less), the path's length read from the wrong place (round trip), fields swapped (round trip).
@Suite struct FileSpanTests {
    let span = FileSpan(
        path: "/var/lib/heylook/photos/HeyLook_2026-11-28_10-00-00_000001.jpg", device: 0x0801, inode: 1_234_567,
        offset: 7, length: 3_500_000)

    @Test func aMarkerReadsBackWithItsSecret() {
        let secret = FileSpan.randomSecret()
        let marker = span.marker(secret: secret)
        #expect(marker.count == FileSpan.secretLength + 36 + span.path.utf8.count)
        #expect(marker.withUnsafeBytes { FileSpan(marker: $0, secret: secret) } == span)
        let unicode = FileSpan(path: "/tmp/Ünïcødé 😀.jpg", device: .max, inode: 0, offset: .max, length: 1)
        #expect(unicode.marker(secret: secret).withUnsafeBytes { FileSpan(marker: $0, secret: secret) } == unicode)
    }

    @Test func otherBytesAreNotAMarker() {
        let secret = FileSpan.randomSecret()
        var other = FileSpan.randomSecret()
        other[0] ^= 1
        #expect(FileSpan.randomSecret() != secret, "each start draws a new secret")
        let marker = span.marker(secret: secret)
        #expect(marker.withUnsafeBytes { FileSpan(marker: $0, secret: other) } == nil)
        #expect((marker + [0]).withUnsafeBytes { FileSpan(marker: $0, secret: secret) } == nil)
        #expect(marker.dropLast().withUnsafeBytes { FileSpan(marker: $0, secret: secret) } == nil)
        #expect(secret.withUnsafeBytes { FileSpan(marker: $0, secret: secret) } == nil)
        #expect([UInt8]().withUnsafeBytes { FileSpan(marker: $0, secret: secret) } == nil)
        // A photo whose bytes happened to begin like a marker is still bytes when its length does not match.
        let photo = marker + [UInt8](repeating: 0xFF, count: 4096)
        #expect(photo.withUnsafeBytes { FileSpan(marker: $0, secret: secret) } == nil)
        // A path that is not UTF-8 is not a marker.
        var broken = marker
        broken[broken.count - 1] = 0xFF
        #expect(broken.withUnsafeBytes { FileSpan(marker: $0, secret: secret) } == nil)
    }
}
