// MountedStickTests: real mounts (tmpfs, when the tests run as root): a full stick, a read-only
// stick, and the unmount at the end.
import BoothCore
import BoothSystem
import BoothTestSupport
import Checksum
import Dispatch
import Glibc
import Testing

@testable import PhotoStore
@testable import USBSticks

/// A tmpfs of `kilobytes` mounted at a new folder, or nil when the mount fails.
private func mountStick(kilobytes: Int, readOnly: Bool = false) -> String? {
    guard geteuid() == 0 else { return nil }
    let point = temporaryDirectory()
    let flags: UInt = readOnly ? UInt(MS_RDONLY) : 0
    guard mount("none", point, "tmpfs", flags, "size=\(kilobytes)k") == 0 else { return nil }
    return point
}

private func isMounted(_ point: String) -> Bool {
    MountTable.parse(PhotoStore.readSmallFile("/proc/self/mountinfo") ?? "").contains { $0.mountPoint == point }
}

// Root only: as root (CI is) a mount that fails fails the test (`#require`), never skips it.
@Suite(.timeLimit(.minutes(3)), .enabled(if: geteuid() == 0, "needs root to mount tmpfs")) struct MountedStickTests {
    let options = ExportOptions(allowedFileSystems: ["tmpfs"], unmount: true)

    @Test func aCompleteExportIsFlushedAndUnmounted() throws {
        let store = try StoreFixtures.store(photos: 3)
        let stick = try #require(mountStick(kilobytes: 4096))
        let summary = try StickExporter(store: store, options: options).export(to: stick)
        #expect(summary.copied == 3 && summary.unmounted && summary.unmountError == nil)
        #expect(!isMounted(stick))
    }

    @Test func aMountOfAnotherFileSystemIsLeftMounted() throws {
        let store = try StoreFixtures.store(photos: 1)
        let stick = try #require(mountStick(kilobytes: 600))
        defer { umount2(stick, 0) }
        var options = options
        options.allowedFileSystems = ["vfat", "exfat"]
        #expect(throws: ExportError.self) { try StickExporter(store: store, options: options).export(to: stick) }
        #expect(isMounted(stick))
    }

    @Test func aFullStickStopsWithAClearMessageAndKeepsWhatWasCopied() throws {
        let store = try StoreFixtures.store(photos: 4)
        let stick = try #require(mountStick(kilobytes: 600))
        var options = options
        options.unmount = false
        defer { umount2(stick, 0) }
        #expect {
            try StickExporter(store: store, options: options).export(to: stick)
        } throws: { error in
            guard let error = error as? ExportError else { return false }
            return error.errno == ENOSPC && error.done >= 1 && error.done < 4
                && error.description.contains("The stick is full")
        }
        let found = StoreFixtures.snapshot("\(stick)/HeyLook", ignoring: [StickExporter.lockName])
            .filter { !$0.key.hasSuffix("manifest.txt") }
        #expect(!found.isEmpty)
        for (path, checksum) in found {
            let name = String(path.split(separator: "/").last!)
            #expect(checksum == CRC32.checksum(readFile("\(store.directory)/\(name)") ?? []))
        }
        let manifest = ExportManifest.decode(PhotoStore.readSmallFile("\(stick)/HeyLook/manifest.txt") ?? "")
        #expect(manifest?.entries.count == found.count)
    }

    /// A mount busy for a moment (here a file the test holds open for 200 ms) is unmounted once it is free.
    /// Mutation: no second try (as the unmounter had) reports EBUSY and leaves it mounted. A parallel test run
    /// once left `aReadOnlyStickIsRefused`'s tmpfs mounted, most likely so (the failure did not say why).
    /// The file is closed on a queue of its own (the global queue's few threads can all be taken by other tests
    /// on a busy machine: a CI run beside two busy loops never closed it in time), and the unmounter here tries
    /// for 10 s rather than its 1 s: what is checked is that it tries again, not how fast the machine is.
    @Test func aMountBusyForAMomentIsStillUnmounted() throws {
        let stick = try #require(mountStick(kilobytes: 600))
        let fd = open("\(stick)/held", O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        try #require(fd >= 0)
        DispatchQueue(label: "heylook.test-holder").asyncAfter(deadline: .now() + 0.2) { close(fd) }
        #expect(KernelUnmounter(busyWait: .seconds(10)).unmount(stick) == nil)
        #expect(!isMounted(stick))
        if isMounted(stick) { _ = umount2(stick, Int32(MNT_DETACH)) }
    }

    @Test func aReadOnlyStickIsRefused() throws {
        let store = try StoreFixtures.store(photos: 1)
        let stick = try #require(mountStick(kilobytes: 600, readOnly: true))
        #expect {
            try StickExporter(store: store, options: options).export(to: stick)
        } throws: { error in
            guard let error = error as? ExportError else { return false }
            // Nothing to flush, so it is unmounted: safe to remove.
            return error.errno == EROFS && error.description.contains("read-only") && error.unmounted
        }
        #expect(!isMounted(stick))
    }

    /// The stick mountinfo showed at a point, then another file system mounted over it before the export opens the
    /// point: the export refuses it (named, nothing read or written there, both left mounted); the mount on top,
    /// asked for by its own device, is exported and unmounted. Mutation: without `checkDevice` the export writes
    /// into the mount on top and unmounts it.
    @Test func aMountThatIsNotTheStickSeenThereIsRefusedUntouched() throws {
        let store = try StoreFixtures.store(photos: 2)
        let stick = try #require(mountStick(kilobytes: 4096))
        defer { _ = umount2(stick, Int32(MNT_DETACH)) }
        let seen = try #require(
            MountTable.parse(PhotoStore.readSmallFile("/proc/self/mountinfo") ?? "").last { $0.mountPoint == stick })
        var info = stat()
        try #require(stat(stick, &info) == 0)
        #expect(StickAdmission.deviceName(info.st_dev) == seen.device, "the device is named as mountinfo names it")
        try #require(mount("none", stick, "tmpfs", 0, "size=4096k") == 0)
        let onTop = try #require(
            MountTable.parse(PhotoStore.readSmallFile("/proc/self/mountinfo") ?? "").last { $0.mountPoint == stick })
        try #require(onTop.device != seen.device)
        let unmounter = RecordingUnmounter()
        var options = options
        options.unmounter = unmounter
        #expect {
            try StickExporter(store: store, options: options).export(to: stick, device: seen.device)
        } throws: { error in
            guard let error = error as? ExportError, case .mountChanged = error.reason else { return false }
            return error.isRefusedFileSystem && !error.unmounted && error.description.contains(seen.device)
                && error.description.contains("plug it in again")
        }
        #expect(StoreFixtures.snapshot(stick).isEmpty, "nothing written to the mount on top")
        #expect(unmounter.calls.isEmpty)
        #expect(store.records().allSatisfy { $0.exportedTo.isEmpty })

        let summary = try StickExporter(store: store, options: options).export(to: stick, device: onTop.device)
        #expect(summary.copied == 2 && unmounter.calls == [stick])
        _ = umount2(stick, 0)
        #expect(isMounted(stick), "the stick seen first is still mounted below")
    }
}
