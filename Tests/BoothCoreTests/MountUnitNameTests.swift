// MountUnitNameTests: mount points named as systemd names their mount units.
import BoothCore
import Testing

@Suite struct MountUnitNameTests {
    @Test func aStickBelowTheMediaRootIsEscapedAsSystemdDoes() {
        // `systemd-escape --path --suffix=mount /media/heylook/1234-ABCD`
        #expect(MountUnitName.forMountPoint("/media/heylook/1234-ABCD") == #"media-heylook-1234\x2dABCD.mount"#)
        #expect(MountUnitName.forMountPoint("/media/heylook/6a1f2c3e-4b5d") == #"media-heylook-6a1f2c3e\x2d4b5d.mount"#)
    }

    @Test func slashesDotsAndOddBytesAreNormalizedOrEscaped() {
        #expect(MountUnitName.escapePath("/") == "-")
        #expect(MountUnitName.escapePath("//media//heylook/./x/") == "media-heylook-x")
        #expect(MountUnitName.escapePath("/media/My Stick") == #"media-My\x20Stick"#)
        #expect(MountUnitName.escapePath("/media/a\\b") == #"media-a\x5cb"#)
        #expect(MountUnitName.escapePath("/.hidden/a.b:c_d") == #"\x2ehidden-a.b:c_d"#)
        #expect(MountUnitName.escapePath("/media/é") == #"media-\xc3\xa9"#)
    }
}
