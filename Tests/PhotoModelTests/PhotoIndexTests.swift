// PhotoIndexTests: encoding round trip, damage detection, reconciling with the files, cleanup candidates.
import BoothTime
import Checksum
import Testing

@testable import PhotoModel

private func name(_ n: Int) -> String {
    PhotoName(dateTime: .init(year: 2026, month: 5, day: 1 + n % 3, hour: 10, minute: 0, second: n % 60), sequence: n)
        .fileName
}

@Test func indexRoundTrips() {
    let index = PhotoIndex([
        .init(name: name(1), state: .kept, size: 100, checksum: 0xDEAD_BEEF, exportedTo: ["stick-a", "stick-b"]),
        .init(name: name(2), state: .discarded, size: 5),
        .init(name: name(3), state: .kept, size: 0, checksum: 0),
    ])
    let text = index.encode()
    #expect(PhotoIndex.decode(text) == index)
    #expect(index.sorted.map(\.name) == [name(1), name(2), name(3)])
}

@Test func anUndatedPhotosMomentRoundTripsAtTheEndOfItsLine() throws {
    let moment = try #require(BootInstant(boot: String(repeating: "ab", count: 16), instant: .seconds(52)))
    let undated = PhotoName(dateTime: nil, sequence: 4).fileName
    let index = PhotoIndex([
        .init(name: name(1), state: .kept, size: 100),
        .init(name: undated, state: .kept, size: 7, checksum: 1, taken: moment),
    ])
    let text = index.encode()
    #expect(text.contains("photo \(undated) kept 7 00000001 - \(String(repeating: "ab", count: 16))@52000000000\n"))
    #expect(PhotoIndex.decode(text) == index)
    for damaged in [
        "soon", "abab@52", "\(String(repeating: "ab", count: 16))@-1", "x y",
        "\(String(repeating: "ab", count: 16))@52=", "\(String(repeating: "ab", count: 16))@52=today",
    ] {
        let body = "heylook-index 1\nphoto \(undated) kept 7 00000001 - \(damaged)\n"
        #expect(PhotoIndex.decode(body + "end \(CRC32.hex(CRC32.checksum(body.utf8)))\n") == nil, "\(damaged)")
    }
}

@Test func damagedIndexIsRefused() {
    let text = PhotoIndex([.init(name: name(1), state: .kept, size: 100, exportedTo: ["s"])]).encode()
    #expect(PhotoIndex.decode(String(text.dropLast(5))) == nil)  // torn
    let flipped = String(text.map { $0 == "1" ? "2" : $0 })
    #expect(PhotoIndex.decode(flipped) == nil)  // a digit changed
    #expect(PhotoIndex.decode("") == nil)
    #expect(PhotoIndex.decode("garbage\nend 00000000\n") == nil)
    // A line that checks out but is malformed is refused too.
    let body = "heylook-index 1\nphoto ../../etc/passwd kept 1 - -\n"
    #expect(PhotoIndex.decode(body + "end \(CRC32.hex(CRC32.checksum(body.utf8)))\n") == nil)
}

/// A mark of the photos' boot dates each undated photo of that boot once; the date is kept in its line, survives
/// a reconcile, and another writer's index that lacks it takes it in a merge.
@Test func aClockMarkDatesTheUndatedPhotosOfItsBootOnce() throws {
    let boot = String(repeating: "ab", count: 16)
    let at = try #require(BootInstant(boot: boot, instant: .seconds(100)))
    let mark = ClockMark(setTo: 1_795_780_800, was: 0, phone: "::1", at: at)
    let undated = (1...3).map { PhotoName(dateTime: nil, sequence: $0).fileName }
    var index = PhotoIndex([
        .init(name: undated[0], state: .kept, size: 7, taken: BootInstant(boot: boot, instant: .seconds(40))),
        .init(
            name: undated[1], state: .kept, size: 7,
            taken: BootInstant(
                boot: String(repeating: "0", count: 32),
                instant: .seconds(40))),
        .init(name: undated[2], state: .discarded, size: 7),
        .init(name: name(4), state: .kept, size: 7),
    ])
    let before = index
    #expect(index.date(by: mark) == 1)
    #expect(index.entries[undated[0]]?.dated == 1_795_780_740)
    #expect(index.entries[undated[1]]?.dated == nil && index.entries[name(4)]?.dated == nil)
    #expect(index.date(by: mark) == 0, "dated once")
    let text = index.encode()
    #expect(text.contains("photo \(undated[0]) kept 7 - - \(boot)@40000000000=1795780740\n"))
    #expect(PhotoIndex.decode(text) == index)
    var reconciled = index
    reconciled.reconcile(with: index.sorted.map { .init(name: $0.name, state: $0.state, size: $0.size) })
    #expect(reconciled == index)
    var other = before
    #expect(other.merge(index) { _ in true })
    #expect(other.entries[undated[0]]?.dated == 1_795_780_740)
    #expect(PhotoIndex.Entry(name: name(5), state: .kept, size: 1, dated: 5).dated == nil, "no date without a moment")
}

@Test func reconcileFollowsTheFiles() {
    var index = PhotoIndex([
        .init(name: name(1), state: .kept, size: 100, checksum: 1, exportedTo: ["s"]),
        .init(name: name(2), state: .kept, size: 200, checksum: 2, exportedTo: ["s"]),
        .init(name: name(3), state: .kept, size: 300, exportedTo: ["s"]),
    ])
    let changed = index.reconcile(with: [
        .init(name: name(1), state: .kept, size: 100),  // unchanged
        .init(name: name(2), state: .kept, size: 201),  // size changed: forget checksum and exports
        .init(name: name(4), state: .discarded, size: 400),  // new
        .init(name: "notes.txt", state: .kept, size: 1),  // not a photo
    ])
    #expect(changed == 3, "2 changed in size, 3 vanished, 4 new")
    #expect(index.entries[name(1)] == .init(name: name(1), state: .kept, size: 100, checksum: 1, exportedTo: ["s"]))
    #expect(index.entries[name(2)] == .init(name: name(2), state: .kept, size: 201))
    #expect(index.entries[name(3)] == nil)
    #expect(index.entries[name(4)]?.state == .discarded)
    #expect(index.entries.count == 3)
    let again = index.reconcile(with: index.sorted.map { .init(name: $0.name, state: $0.state, size: $0.size) })
    #expect(again == 0)
}

@Test func onlyExportedKeptPhotosAreRemovable() {
    var index = PhotoIndex.rebuilt(from: [
        .init(name: name(1), state: .kept, size: 1), .init(name: name(2), state: .kept, size: 1),
        .init(name: name(3), state: .discarded, size: 1), .init(name: name(4), state: .kept, size: 1),
    ])
    #expect(index.removableWhenFull.isEmpty)
    index.markExported(name(4), checksum: 9, to: "s")
    index.markExported(name(2), checksum: 9, to: "s")
    let unknown = index.markExported("HeyLook_2026-01-01_00-00-00_999999.jpg", checksum: 1, to: "s")
    #expect(!unknown)
    #expect(index.removableWhenFull.map(\.name) == [name(2), name(4)])
}

/// A copy whose checksum is not the one the photo was saved with is not that photo: not marked, so
/// never removable; the saved checksum stays.
@Test func aCopyThatDoesNotMatchTheSavedChecksumIsNotMarked() {
    var index = PhotoIndex([.init(name: name(1), state: .kept, size: 100, checksum: 7)])
    let wrong = index.markExported(name(1), checksum: 8, to: "s")
    #expect(!wrong)
    #expect(index.removableWhenFull.isEmpty)
    #expect(index.entries[name(1)]?.checksum == 7)
    let right = index.markExported(name(1), checksum: 7, to: "s")
    #expect(right)
    #expect(index.removableWhenFull.map(\.name) == [name(1)])
}

@Test func mergeTakesTheOtherWritersExportsButKeepsItsOwnStates() {
    var ours = PhotoIndex([
        .init(name: name(1), state: .kept, size: 100, checksum: 7, exportedTo: ["a"]),
        .init(name: name(2), state: .discarded, size: 50),
        .init(name: name(3), state: .kept, size: 10, checksum: 9),
    ])
    let theirs = PhotoIndex([
        .init(name: name(1), state: .kept, size: 100, checksum: 7, exportedTo: ["b"]),
        .init(name: name(2), state: .kept, size: 50, checksum: 3, exportedTo: ["b"]),
        .init(name: name(3), state: .kept, size: 10, checksum: 8, exportedTo: ["b"]),  // other content: not ours
        .init(name: name(4), state: .kept, size: 20, exportedTo: []),
        .init(name: name(5), state: .kept, size: 30, exportedTo: []),
    ])
    #expect(ours.merge(theirs) { $0.name == name(4) })
    #expect(ours.entries[name(1)]?.exportedTo == ["a", "b"])
    #expect(ours.entries[name(2)]?.state == .discarded && ours.entries[name(2)]?.exportedTo == ["b"])
    #expect(ours.entries[name(3)]?.exportedTo == [] && ours.entries[name(3)]?.checksum == 9)
    #expect(ours.entries[name(4)] != nil && ours.entries[name(5)] == nil)
    #expect(!ours.merge(theirs) { _ in false })
}
