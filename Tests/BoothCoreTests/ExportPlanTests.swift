// ExportPlanTests: what to copy given the manifest and the files on the stick.
import Testing

@testable import BoothCore
@testable import PhotoModel

private func photo(_ n: Int, size: Int64 = 100) -> ExportPlan.Photo {
    .init(
        name: PhotoName(dateTime: .init(year: 2026, month: 5, day: 1, hour: 10, minute: 0, second: 0), sequence: n)
            .fileName, size: size)
}
private func path(_ p: ExportPlan.Photo) -> String { "2026-05-01/\(p.name)" }

@Test func firstExportCopiesEverythingIntoDateFolders() {
    let photos = [photo(1), photo(2)]
    let plan = ExportPlan.make(photos: photos, booth: "a", manifest: .init(stickID: "s"), present: [:])
    #expect(plan.items.map(\.path) == photos.map(path))
    #expect(plan.items.allSatisfy { !$0.adopt })
    #expect(plan.alreadyThere == 0)
}

/// An undated photo dated since (a phone set the clock) goes into its date's folder under its own name; one not
/// dated goes to `undated/`; a dated name is filed by its name, whatever folder is given.
@Test func anUndatedPhotoDatedSinceGoesIntoItsDatesFolder() {
    let dated = ExportPlan.Photo(name: PhotoName(dateTime: nil, sequence: 1).fileName, size: 10, folder: "2026-11-27")
    let undated = ExportPlan.Photo(name: PhotoName(dateTime: nil, sequence: 2).fileName, size: 10)
    let named = ExportPlan.Photo(name: photo(3).name, size: 10, folder: "2026-11-27")
    let plan = ExportPlan.make(
        photos: [dated, undated, named], booth: "a", manifest: .init(stickID: "s"), present: [:])
    #expect(
        plan.items.map(\.path) == [
            "2026-11-27/HeyLook_undated_000001.jpg", "undated/HeyLook_undated_000002.jpg", path(photo(3)),
        ])
}

@Test func reExportCopiesNothingNew() {
    let photos = [photo(1), photo(2)]
    let manifest = ExportManifest(
        stickID: "s",
        entries: photos.map {
            .init(booth: "a", source: $0.name, path: path($0), size: $0.size, checksum: 1)
        })
    let present = Dictionary(uniqueKeysWithValues: photos.map { (path($0), $0.size) })
    let plan = ExportPlan.make(photos: photos + [photo(3)], booth: "a", manifest: manifest, present: present)
    #expect(plan.alreadyThere == 2)
    #expect(plan.items.map(\.source) == [photo(3).name])
    #expect(plan.kept == manifest.entries)
}

@Test func twoBoothsWithTheSameNamesAreKeptApart() {
    let p = photo(1)
    let manifest = ExportManifest(
        stickID: "s", entries: [.init(booth: "booth-a", source: p.name, path: path(p), size: 100, checksum: 7)])
    let plan = ExportPlan.make(photos: [p], booth: "booth-b-0123456789", manifest: manifest, present: [path(p): 100])
    #expect(plan.items.count == 1)
    #expect(plan.items[0].name == ExportPlan.alternativeName(p.name, booth: "booth-b-0123456789", attempt: 1))
    #expect(plan.items[0].name.hasSuffix("_booth-b-.jpg"))
    #expect(!plan.items[0].adopt)
    #expect(plan.kept.count == 1)
}

@Test func unclaimedFilesOfTheRightSizeAreVerifiedNotTrusted() {
    // A rebuilt (empty) manifest: the file is there with the right size: adopt after verifying; a
    // file of another size is someone else's: pick another name.
    let plan = ExportPlan.make(
        photos: [photo(1), photo(2)], booth: "a", manifest: .init(stickID: "s"),
        present: [path(photo(1)): 100, path(photo(2)): 99])
    #expect(
        plan.items[0] == .init(source: photo(1).name, size: 100, folder: "2026-05-01", name: photo(1).name, adopt: true)
    )
    #expect(plan.items[1].name == ExportPlan.alternativeName(photo(2).name, booth: "a", attempt: 1))
    #expect(!plan.items[1].adopt)
}

@Test func vanishedFilesAreCopiedAgain() {
    let p = photo(1)
    let manifest = ExportManifest(
        stickID: "s", entries: [.init(booth: "a", source: p.name, path: path(p), size: 100, checksum: 7)])
    let plan = ExportPlan.make(photos: [p], booth: "a", manifest: manifest, present: [:])
    #expect(plan.dropped == manifest.entries)
    #expect(plan.items.map(\.source) == [p.name])
    // Case differs (FAT): still the same file.
    let again = ExportPlan.make(photos: [p], booth: "a", manifest: manifest, present: [path(p).uppercased(): 100])
    #expect(again.alreadyThere == 1 && again.items.isEmpty)
}

@Test func tooLargeOrOddPhotosAreSkipped() {
    let plan = ExportPlan.make(
        photos: [photo(1, size: FATName.maximumFileSize + 1), .init(name: "x.jpg", size: 1), photo(2)],
        booth: "a", manifest: .init(stickID: "s"), present: [:], maximumFileSize: FATName.maximumFileSize)
    #expect(plan.skipped.map(\.source) == [photo(1).name, "x.jpg"])
    #expect(plan.items.map(\.source) == [photo(2).name])
}

@Test func exportNamesAreOnlyTheNamesAnExportWrites() {
    let name = photo(1).name
    #expect(ExportPlan.isExportName(name))
    for attempt in [1, 2, 37] {
        #expect(ExportPlan.isExportName(ExportPlan.alternativeName(name, booth: "0123456789abcdef", attempt: attempt)))
    }
    let stem = String(name.dropLast(4))
    for other in ["notes.txt", "IMG_0001.jpg", "\(stem)_zz.jpg", "\(stem)_1a2b3c4d-1.jpg", "\(stem)_1a2b3c4d-02.jpg"] {
        #expect(!ExportPlan.isExportName(other), "\(other)")
    }
}

/// Photos taken before the clock was trusted go to the stick's `undated` folder, never to a date.
@Test func undatedPhotosGoToTheUndatedFolder() {
    let undated = ExportPlan.Photo(name: PhotoName(dateTime: nil, sequence: 9).fileName, size: 100)
    let plan = ExportPlan.make(
        photos: [photo(1), undated], booth: "a", manifest: .init(stickID: "s"), present: [:])
    #expect(plan.items.map(\.path) == ["2026-05-01/\(photo(1).name)", "undated/HeyLook_undated_000009.jpg"])
    #expect(ExportPlan.isExportName(undated.name))
    #expect(ExportPlan.isExportName(ExportPlan.alternativeName(undated.name, booth: "0123456789abcdef", attempt: 3)))
}

/// Layouts go to the export folder's `layouts/` folder after the photos, planned as photos are: once on the stick
/// (the manifest's claim), not again; a stranger's file under the name, beside it under the booth's tag.
@Test func layoutsArePlannedIntoTheirOwnFolder() {
    let strip = LayoutName(photo: PhotoName(fileName: photo(1).name)!, kind: "strip").fileName
    let grid = LayoutName(photo: PhotoName(fileName: photo(2).name)!, kind: "grid").fileName
    let layouts = [ExportPlan.Photo(name: strip, size: 50), ExportPlan.Photo(name: grid, size: 60)]
    let first = ExportPlan.make(
        photos: [photo(1)], layouts: layouts, booth: "abcdef12", manifest: .init(stickID: "s"),
        present: ["layouts/\(grid)": 61])
    #expect(
        first.items.map(\.path) == [path(photo(1)), "layouts/\(strip)", "layouts/\(grid.dropLast(4))_abcdef12.jpg"])
    #expect(first.items.map(\.source) == [photo(1).name, strip, grid])
    #expect(
        first.items.map { ExportPlan.storePath(of: $0.source) } == [
            photo(1).name, "layouts/\(strip)", "layouts/\(grid)",
        ])
    #expect(first.items.map(\.isLayout) == [false, true, true])

    var manifest = ExportManifest(stickID: "s")
    manifest.entries = [
        .init(booth: "abcdef12", source: strip, path: "layouts/\(strip)", size: 50, checksum: 1)
    ]
    let second = ExportPlan.make(
        photos: [], layouts: layouts, booth: "abcdef12", manifest: manifest,
        present: ["layouts/\(strip)": 50, "layouts/\(grid)": 60])
    #expect(second.layoutsAlreadyThere == 1 && second.alreadyThere == 0)
    #expect(second.items.map(\.path) == ["layouts/\(grid)"] && second.items.map(\.adopt) == [true])

    let odd = ExportPlan.make(
        photos: [], layouts: [.init(name: "poster.jpg", size: 1)], booth: "a", manifest: .init(stickID: "s"),
        present: [:])
    #expect(odd.items.isEmpty && odd.skipped.map(\.source) == ["poster.jpg"])
}

/// An export may delete a layout's temp file or empty file on a stick, its own or under a booth's tag, and nothing
/// that only looks like one.
@Test func layoutNamesAreExportNames() {
    let photoName = PhotoName(fileName: photo(1).name)!
    for kind in LayoutName.kinds {
        let name = LayoutName(photo: photoName, kind: kind).fileName
        #expect(ExportPlan.isExportName(name))
        for attempt in [1, 2, 37] {
            #expect(
                ExportPlan.isExportName(ExportPlan.alternativeName(name, booth: "0123456789abcdef", attempt: attempt)))
        }
    }
    let stem = String(photo(1).name.dropLast(4))
    for other in [
        "\(stem)-poster.jpg", "\(stem)-strip-strip.jpg", "\(stem)-strip_zz.jpg", "\(stem)_1a2b3c4d-strip.jpg",
    ] {
        #expect(!ExportPlan.isExportName(other), "\(other)")
    }
    #expect(LayoutName.kinds == PrintLayout.Kind.allCases.map(\.rawValue))
}

/// `p` with a RAW companion of `size` bytes (its name in the store: the photo's with "cr2").
private func withRaw(_ p: ExportPlan.Photo, size: Int64 = 500) -> ExportPlan.Photo {
    var p = p
    let raw = PhotoName(fileName: p.name)!.companionFileName(extension: "cr2")!
    p.companions = [.init(name: raw, size: size)]
    return p
}

/// A photo's companion (a RAW) follows it into its date folder under its name with the RAW's extension, after it;
/// filing it by its photo's store name instead of the copy's own (`companionStickName` given `photo.name`) fails this.
@Test func aRawFollowsItsPhotoUnderThePhotosStickName() throws {
    let p = withRaw(photo(1))
    let undated = PhotoName(dateTime: nil, sequence: 2)
    var redated = withRaw(ExportPlan.Photo(name: undated.fileName, size: 10, folder: "2026-11-27"), size: 700)
    redated.stickName = "HeyLook_2026-11-27_09-30-00_000002.jpg"
    let plan = ExportPlan.make(photos: [p, redated], booth: "a", manifest: .init(stickID: "s"), present: [:])
    #expect(
        plan.items.map(\.path) == [
            path(p), "2026-05-01/\(p.name.dropLast(3))cr2", "2026-11-27/HeyLook_2026-11-27_09-30-00_000002.jpg",
            "2026-11-27/HeyLook_2026-11-27_09-30-00_000002.cr2",
        ])
    // The RAW's source is its name in the store; its size its own (never rewritten).
    #expect(plan.items[3].source == "HeyLook_undated_000002.cr2" && plan.items[3].size == 700)
    #expect(plan.items.map(\.isCompanion) == [false, true, false, true])
    #expect(plan.items.allSatisfy { !$0.adopt } && plan.skipped.isEmpty)
}

/// A RAW the manifest claims is already there, and a photo already there still gets a RAW not yet there; a same-size
/// file under its name is adopted (checked by the exporter), another size makes it take the booth's tag. Skipping a
/// photo's companions once the photo is there (`continue` after `alreadyThere += 1`) fails this.
@Test func aRawAlreadyThereIsCountedApartAndAPhotoThereStillGetsItsRaw() throws {
    let (one, two, three) = (withRaw(photo(1)), withRaw(photo(2)), withRaw(photo(3)))
    let raw = { (p: ExportPlan.Photo) in p.companions[0] }
    let rawPath = { (p: ExportPlan.Photo) in "2026-05-01/\(raw(p).name)" }
    let manifest = ExportManifest(
        stickID: "s",
        entries: [
            .init(booth: "a", source: one.name, path: path(one), size: 100, checksum: 1),
            .init(booth: "a", source: raw(one).name, path: rawPath(one), size: 500, checksum: 2),
            .init(booth: "a", source: two.name, path: path(two), size: 100, checksum: 3),
        ])
    let present = [
        path(one): Int64(100), rawPath(one): 500, path(two): 100, rawPath(two): 500, rawPath(three): 9,
    ]
    let plan = ExportPlan.make(photos: [one, two, three], booth: "a", manifest: manifest, present: present)
    #expect(plan.alreadyThere == 2 && plan.companionsAlreadyThere == 1)
    #expect(plan.items.map(\.source) == [raw(two).name, three.name, raw(three).name])
    #expect(plan.items.map(\.adopt) == [true, false, false])
    #expect(plan.items[2].name == ExportPlan.alternativeName(raw(three).name, booth: "a", attempt: 1))
    #expect(ExportPlan.isExportName(plan.items[2].name) && ExportPlan.isExportName(raw(three).name))
}

/// Companions are no photos of the index: only photos' sources are ever recorded as exported.
@Test func onlyPhotosSourcesArePhotosOfTheIndex() {
    #expect(ExportPlan.isPhotoSource(photo(1).name))
    #expect(!ExportPlan.isPhotoSource("HeyLook_2026-05-01_10-00-00_000001.cr2"))
    #expect(ExportPlan.isCompanionSource("HeyLook_2026-05-01_10-00-00_000001.cr2"))
    #expect(!ExportPlan.isPhotoSource("HeyLook_2026-05-01_10-00-00_000001-strip.jpg"))
    #expect(!ExportPlan.isCompanionSource("HeyLook_2026-05-01_10-00-00_000001-strip.jpg"))
}

/// A RAW larger than the stick's file system allows is skipped with the reason; its photo still goes. Dropping the
/// companions' size check fails this.
@Test func aRawTooLargeForTheStickIsSkippedAndItsPhotoStillGoes() {
    let p = withRaw(photo(1), size: 5_000)
    let plan = ExportPlan.make(
        photos: [p], booth: "a", manifest: .init(stickID: "s"), present: [:], maximumFileSize: 4_000)
    #expect(plan.items.map(\.source) == [p.name])
    #expect(plan.skipped.map(\.source) == [p.companions[0].name])
    #expect(plan.skipped.first?.reason.contains("4 GiB on FAT") == true)
}
