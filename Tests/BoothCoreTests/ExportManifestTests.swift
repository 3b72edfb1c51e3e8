// ExportManifestTests: manifest round trip, damage and hostile paths refused.
import Checksum
import Testing

@testable import BoothCore

@Test func manifestRoundTrips() {
    let manifest = ExportManifest(
        stickID: "abc-123",
        entries: [
            .init(
                booth: "booth-1", source: "HeyLook_2026-05-01_10-00-00_000001.jpg",
                path: "2026-05-01/HeyLook_2026-05-01_10-00-00_000001.jpg", size: 12, checksum: 0xFFFF_FFFF)
        ])
    #expect(ExportManifest.decode(manifest.encode()) == manifest)
    #expect(ExportManifest.decode(ExportManifest(stickID: "x").encode()) == ExportManifest(stickID: "x"))
}

@Test func damagedManifestIsRefusedButItsStickIDSalvaged() {
    let text = ExportManifest(
        stickID: "stick-9",
        entries: [
            .init(
                booth: "b", source: "HeyLook_2026-05-01_10-00-00_000001.jpg", path: "2026-05-01/a.jpg", size: 1,
                checksum: 1)
        ]
    ).encode()
    let torn = String(text.prefix(text.count - 20))
    #expect(ExportManifest.decode(torn) == nil)
    #expect(ExportManifest.salvageStickID(torn) == "stick-9")
    #expect(ExportManifest.salvageStickID("nonsense") == nil)
}

@Test func manifestPathsCannotLeaveTheExportFolder() {
    for bad in ["../x.jpg", "a/../../x", "/etc/passwd", "a/b/c", "x.jpg", "2026-05-01/.hidden", "a/"] {
        #expect(!ExportManifest.isValidPath(bad), "\(bad)")
        let body = "heylook-manifest 1\nstick s\nfile b n.jpg \(bad) 1 00000001\n"
        #expect(ExportManifest.decode(body + "end \(CRC32.hex(CRC32.checksum(body.utf8)))\n") == nil)
    }
    #expect(ExportManifest.isValidPath("2026-05-01/x.jpg"))
}

/// Version 2 records each copy's SHA-256 (or "-" for an entry read from version 1 and not yet verified), and
/// round-trips; a version 1 manifest (no SHA-256 column) is still read; a bad hash is damage.
@Test func manifestVersion2CarriesSHA256AndVersion1IsStillRead() {
    let photo = "HeyLook_2026-05-01_10-00-00_000001.jpg"
    let digest = ContentDigest(of: Array("a photo".utf8))
    let manifest = ExportManifest(
        stickID: "s",
        entries: [
            .init(booth: "b", source: photo, path: "2026-05-01/\(photo)", digest: digest),
            .init(booth: "b", source: photo, path: "2026-05-01/x.jpg", size: 3, checksum: 7),
        ])
    let text = manifest.encode()
    #expect(text.hasPrefix("heylook-manifest 2\n"))
    #expect(text.contains(" \(CRC32.hex(digest.crc32)) \(SHA256.hex(digest.sha256))\n"))
    #expect(text.contains(" 00000007 -\n"))
    #expect(ExportManifest.decode(text) == manifest)
    #expect(manifest.entries[0].matches(digest))
    #expect(!manifest.entries[0].matches(ContentDigest(of: Array("a phot0".utf8))))

    let body = "heylook-manifest 1\nstick s\nfile b \(photo) 2026-05-01/\(photo) 7 \(CRC32.hex(digest.crc32))\n"
    let old = ExportManifest.decode(body + "end \(CRC32.hex(CRC32.checksum(body.utf8)))\n")
    #expect(old?.entries.first?.sha256 == nil && old?.entries.first?.checksum == digest.crc32)
    for bad in ["abc", String(repeating: "G", count: 64), SHA256.hex(digest.sha256) + "0"] {
        let line = "heylook-manifest 2\nstick s\nfile b \(photo) 2026-05-01/\(photo) 7 00000001 \(bad)\n"
        #expect(ExportManifest.decode(line + "end \(CRC32.hex(CRC32.checksum(line.utf8)))\n") == nil, "\(bad)")
    }
}
