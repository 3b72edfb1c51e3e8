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
    #expect(!ExportManifest.isValidID("a b"))
    #expect(!ExportManifest.isValidID(""))
    #expect(!ExportManifest.isValidID(String(repeating: "a", count: 65)))
}
