// PhotoNameTests: photo file names, dated and undated.
import BoothCore
import Testing

@testable import PhotoModel

@Suite struct PhotoNameTests {
    @Test func namesRoundTripAndSortBySequence() {
        let dt = PhotoName.DateTime(year: 2026, month: 11, day: 2, hour: 9, minute: 5, second: 7)
        let name = PhotoName(dateTime: dt, sequence: 42)
        #expect(name.fileName == "HeyLook_2026-11-02_09-05-07_000042.jpg")
        #expect(PhotoName(fileName: name.fileName) == name)
        #expect(PhotoName(fileName: name.temporaryFileName) == nil)
        #expect(PhotoName(fileName: "IMG_0001.jpg") == nil)
        #expect(dt.exifString == "2026:11:02 09:05:07")
        let earlierClockLaterPhoto = PhotoName(
            dateTime: PhotoName.DateTime(year: 2000, month: 1, day: 1, hour: 0, minute: 0, second: 0), sequence: 43)
        #expect(name < earlierClockLaterPhoto)
    }

    /// Only names the store itself writes are ours: a sequence past the store's maximum (it would
    /// overflow the next `+ 1`), zero, signed or unpadded parts name someone else's file.
    @Test(arguments: [
        "HeyLook_2026-01-01_00-00-00_9223372036854775807.jpg", "HeyLook_2026-01-01_00-00-00_1000000000.jpg",
        "HeyLook_2026-01-01_00-00-00_000000.jpg", "HeyLook_2026-01-01_00-00-00_-00005.jpg",
        "HeyLook_2026-01-01_00-00-00_+00005.jpg", "HeyLook_2026-1-1_0-0-0_5.jpg",
    ])
    func namesTheStoreNeverWritesAreNotOurs(fileName: String) {
        #expect(PhotoName(fileName: fileName) == nil)
    }

    @Test func theLargestSequenceIsStillOurs() {
        let name = PhotoName(fileName: "HeyLook_2026-01-01_00-00-00_999999999.jpg")
        #expect(name?.sequence == 999_999_999)
    }

    /// The next number is the one after the highest in use, without listing anything; only past the
    /// largest one (a file named so) is the lowest free number taken.
    @Test func theNextSequenceFollowsTheHighestUntilTheLargestThenFillsTheLowestGap() {
        var listed = 0
        func next(after last: Int, inUse: Set<Int> = []) -> Int? {
            PhotoName.sequence(after: last) {
                listed += 1
                return inUse
            }
        }
        #expect(next(after: 0) == 1)
        #expect(next(after: 41) == 42)
        #expect(next(after: PhotoName.maximumSequence - 1) == 999_999_999)
        #expect(listed == 0)
        #expect(next(after: PhotoName.maximumSequence, inUse: [1, 2, 4, 999_999_999]) == 3)
        #expect(next(after: PhotoName.maximumSequence, inUse: [999_999_999]) == 1)
        #expect(listed == 2)
    }

    /// A photo taken while the clock is not trusted is named by its number alone, goes to the stick's
    /// `undated` folder, parses back, and sorts among dated ones by its number.
    @Test func aCompanionIsNamedAfterItsPhotoWithItsOwnExtension() {
        let dt = PhotoName.DateTime(year: 2026, month: 12, day: 4, hour: 20, minute: 1, second: 2)
        let name = PhotoName(dateTime: dt, sequence: 7)
        #expect(name.companionFileName(extension: "cr2") == "HeyLook_2026-12-04_20-01-02_000007.cr2")
        #expect(PhotoName(companionFileName: "HeyLook_2026-12-04_20-01-02_000007.cr2") == name)
        let undated = PhotoName(dateTime: nil, sequence: 3)
        #expect(PhotoName(companionFileName: undated.companionFileName(extension: "nef")!) == undated)
        // No companion: the photo itself, upper case, a path, too long, a temp file, no extension.
        for ext in ["jpg", "CR2", "c/2", "toolong", ""] { #expect(name.companionFileName(extension: ext) == nil) }
        for file in [
            "HeyLook_2026-12-04_20-01-02_000007.jpg", "HeyLook_2026-12-04_20-01-02_000007.CR2",
            ".HeyLook_undated_000003.nef.partial", "HeyLook_undated_000003", "index.txt",
        ] {
            #expect(PhotoName(companionFileName: file) == nil, "\(file)")
        }
    }

    @Test func undatedNamesRoundTrip() {
        let name = PhotoName(dateTime: nil, sequence: 7)
        #expect(name.fileName == "HeyLook_undated_000007.jpg")
        #expect(name.folder == "undated")
        #expect(PhotoName(fileName: name.fileName) == name)
        #expect(FATName.isSafe(name.fileName))
        let dated = PhotoName(
            dateTime: PhotoName.DateTime(year: 2026, month: 11, day: 2, hour: 9, minute: 5, second: 7), sequence: 8)
        #expect(dated.folder == "2026-11-02")
        #expect(name < dated)
    }

    @Test(arguments: [
        "HeyLook_Undated_000007.jpg", "HeyLook_undated_7.jpg", "HeyLook_undated_000000.jpg", "HeyLook__000007.jpg",
        "HeyLook_2026-01-01_000007.jpg", "HeyLook_undated_00-00-00_000007.jpg",
    ])
    func malformedUndatedNamesAreNotOurs(fileName: String) {
        #expect(PhotoName(fileName: fileName) == nil)
    }
}
