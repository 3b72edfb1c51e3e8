// StickLockTests: two exporters on one stick (the booth and `booth export`) take turns.
import BoothCore
import BoothSystem
import BoothTestSupport
import Checksum
import Glibc
import Testing

@testable import PhotoStore
@testable import USBSticks

/// The lock file exporters share (`StickExporter.lockName`).
private let lockName = ".heylook-export.lock"

@Suite(.timeLimit(.minutes(3))) struct StickLockTests {
    @Test func anExportWaitsWhileAnotherExportHoldsTheStick() async throws {
        let store = try StoreFixtures.store(photos: 2)
        let stick = temporaryDirectory()
        #expect(mkdir("\(stick)/HeyLook", 0o755) == 0)
        // The other exporter: holds the stick's lock.
        let other = open("\(stick)/HeyLook/\(lockName)", O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        #expect(other >= 0 && flock(other, LOCK_EX) == 0)
        let exporter = StickExporter(store: store, options: StoreFixtures.options(for: stick))
        // The export blocks in flock: on a thread of its own, so this test can go on and release the lock.
        let export = Task { try await onOwnThread { try exporter.export(to: stick) } }
        try await Task.sleep(for: .milliseconds(300))
        #expect(access("\(stick)/HeyLook/\(StickExporter.manifestName)", F_OK) != 0, "wrote while locked out")
        #expect(StoreFixtures.snapshot("\(stick)/HeyLook", ignoring: [lockName]).isEmpty)
        close(other)
        let summary = try await export.value
        #expect(summary.copied == 2)
        let manifest = try #require(
            ExportManifest.decode(PhotoStore.readSmallFile("\(stick)/HeyLook/manifest.txt") ?? ""))
        #expect(manifest.entries.count == 2)
    }

    @Test func twoBoothsExportingAtOnceKeepEachOthersFilesAndManifestEntries() async throws {
        let a = try StoreFixtures.store(photos: 6, seed: 1)
        let b = try StoreFixtures.store(photos: 6, seed: 2)  // same names, other content
        let stick = temporaryDirectory()
        let options = StoreFixtures.options(for: stick)
        let exportA = Task { try await onOwnThread { try StickExporter(store: a, options: options).export(to: stick) } }
        let exportB = Task { try await onOwnThread { try StickExporter(store: b, options: options).export(to: stick) } }
        #expect(try await exportA.value.copied == 6)
        #expect(try await exportB.value.copied == 6)
        let manifest = try #require(
            ExportManifest.decode(PhotoStore.readSmallFile("\(stick)/HeyLook/manifest.txt") ?? ""))
        #expect(manifest.entries.filter { $0.booth == a.boothID }.count == 6)
        #expect(manifest.entries.filter { $0.booth == b.boothID }.count == 6)
        let files = StoreFixtures.snapshot("\(stick)/HeyLook")
        for entry in manifest.entries {
            let store = entry.booth == a.boothID ? a : b
            #expect(files[entry.path] == CRC32.checksum(readFile("\(store.directory)/\(entry.source)") ?? []))
        }
        #expect(!files.keys.contains { $0.hasSuffix(".partial") })
    }
}
