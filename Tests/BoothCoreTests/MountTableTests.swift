// MountTableTests: mountinfo parsing and stick insert/remove detection under the media root.
import Testing

@testable import BoothCore

private let sample = """
    22 1 179:2 / / rw,noatime shared:1 - ext4 /dev/mmcblk0p2 rw
    40 22 8:1 / /media/heylook/STICK rw,nosuid,nodev,noexec,relatime shared:30 - vfat /dev/sda1 rw,uid=1000
    41 22 8:17 / /media/heylook/MY\\040PHOTOS ro,relatime - exfat /dev/sdb1 ro
    42 22 0:50 / /media/heylook rw - tmpfs tmpfs rw
    43 22 0:51 / /media/heylookalike rw - tmpfs tmpfs rw
    broken line
    """

@Test func mountinfoIsParsed() {
    let entries = MountTable.parse(sample)
    #expect(entries.count == 5)
    #expect(
        entries[1]
            == MountEntry(
                id: 40, mountPoint: "/media/heylook/STICK", fileSystem: "vfat", source: "/dev/sda1", readOnly: false,
                device: "8:1"))
    #expect(entries[2].mountPoint == "/media/heylook/MY PHOTOS")
    #expect(entries[2].readOnly)
}

@Test func onlyMountsBelowTheRootAreSticks() {
    let sticks = MountTable.sticks(in: MountTable.parse(sample), under: "/media/heylook")
    #expect(Set(sticks.keys) == ["/media/heylook/STICK", "/media/heylook/MY PHOTOS"])
}

@Test func trackerReportsInsertionsAndRemovals() {
    var tracker = StickTracker(root: "/media/heylook/")
    let all = MountTable.parse(sample)
    let first = tracker.mountsChanged(all)
    #expect(first.count == 2)
    #expect(tracker.mountsChanged(all).isEmpty)
    let without = all.filter { $0.id != 40 }
    #expect(tracker.mountsChanged(without) == [.removed(mountPoint: "/media/heylook/STICK")])
    var remounted = all[1]
    remounted.id = 99
    #expect(tracker.mountsChanged(without + [remounted]) == [.inserted(remounted)])
    var again = remounted
    again.id = 100
    #expect(
        tracker.mountsChanged(without + [again]) == [.removed(mountPoint: "/media/heylook/STICK"), .inserted(again)])
}
