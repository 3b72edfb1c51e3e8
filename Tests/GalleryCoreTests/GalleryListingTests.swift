// GalleryListingTests: newest first, grouped by day, undated last, pages, neighbours; retakes never listed.
import BoothTime
import PhotoModel
import Testing

@testable import GalleryCore

@Suite struct GalleryListingTests {
    static func entry(_ name: String, _ state: PhotoIndex.State = .kept, size: Int64 = 1000) -> PhotoIndex.Entry {
        PhotoIndex.Entry(name: name, state: state, size: size)
    }

    static let entries = [
        entry("HeyLook_2026-11-21_10-00-00_000001.jpg"), entry("HeyLook_2026-11-21_10-05-00_000002.jpg"),
        entry("HeyLook_undated_000003.jpg"), entry("HeyLook_2026-11-22_09-00-00_000004.jpg"),
        entry("HeyLook_2026-11-22_09-01-00_000005.jpg", .discarded), entry("HeyLook_undated_000006.jpg"),
        entry("index.txt"), entry("HeyLook_2026-11-22_09-02-00_000007.jpg"),
    ]

    @Test func keptPhotosNewestFirstUndatedLastRetakesAndOtherFilesNever() {
        let listing = GalleryListing(Self.entries)
        #expect(listing.photos.map(\.sequence) == [7, 4, 2, 1, 6, 3])
        #expect(listing.photo(named: "HeyLook_2026-11-22_09-01-00_000005.jpg") == nil, "a retake is never shown")
        #expect(listing.photo(named: "index.txt") == nil)
        #expect(listing.photo(named: "../HeyLook_undated_000003.jpg") == nil)
        #expect(listing.days == ["2026-11-22", "2026-11-21", nil])
        #expect(listing.photo(named: "HeyLook_2026-11-21_10-05-00_000002.jpg")?.time == "10:05:00")
    }

    @Test func pagesCutAcrossDaysAndKeepTheirGroups() {
        let listing = GalleryListing(Self.entries)
        #expect(listing.pageCount(pageSize: 4) == 2)
        let first = listing.page(1, pageSize: 4)
        #expect(first.map(\.day) == ["2026-11-22", "2026-11-21"])
        #expect(first.map { $0.photos.count } == [2, 2])
        let second = listing.page(2, pageSize: 4)
        #expect(second.map(\.day) == [nil])
        #expect(second[0].photos.map(\.sequence) == [6, 3])
        #expect(listing.page(3, pageSize: 4).isEmpty)
        #expect(listing.page(0, pageSize: 4).isEmpty)
        #expect(GalleryListing([]).pageCount(pageSize: 60) == 1)
    }

    @Test func neighboursFollowTheListingsOrder() {
        let listing = GalleryListing(Self.entries)
        let middle = listing.neighbours(of: "HeyLook_2026-11-21_10-00-00_000001.jpg")
        #expect(middle.newer?.sequence == 2)
        #expect(middle.older?.sequence == 6)
        #expect(listing.neighbours(of: "HeyLook_2026-11-22_09-02-00_000007.jpg").newer == nil)
        #expect(listing.neighbours(of: "HeyLook_undated_000003.jpg").older == nil)
    }

    @Test func aDaysPhotosOldestFirst() {
        let listing = GalleryListing(Self.entries)
        #expect(listing.photos(onDay: "2026-11-22").map(\.sequence) == [4, 7])
        #expect(listing.photos(onDay: nil).map(\.sequence) == [3, 6])
        #expect(listing.photos(onDay: "2026-11-23").isEmpty)
    }

    /// 10,000 photos: the listing and a page are made from the index alone (no per-photo I/O).
    @Test func tenThousandPhotosListAndPage() {
        let many = (1...10_000).map { Self.entry(PhotoName(dateTime: nil, sequence: $0).fileName) }
        let listing = GalleryListing(many)
        #expect(listing.photos.count == 10_000)
        #expect(listing.pageCount(pageSize: 60) == 167)
        #expect(listing.page(167, pageSize: 60).first?.photos.count == 40)
    }

    /// Photos saved undated before a phone set the clock take their day and time from the phone's mark, at their
    /// place among the dated days; one of another boot, or saved before moments were recorded, stays undated.
    @Test func undatedPhotosOfTheBootTheClockWasSetInAreDatedByTheMark() throws {
        let boot = "6f1c2a4e9b7d4c0e8a1f2b3c4d5e6f70"
        let at = try #require(BootInstant(boot: boot, instant: .seconds(1000)))
        // Set to 2026-11-27 12:00:00 UTC; shown here in a zone one hour east.
        let dating = PhotoDating(clock: ClockMark(setTo: 1_795_780_800, was: 0, phone: "::1", at: at)) { seconds in
            let local = seconds + 3600
            let time = local % 86_400
            return PhotoName.DateTime(
                year: 2026, month: 11, day: 27, hour: Int(time / 3600), minute: Int(time % 3600 / 60),
                second: Int(time % 60))
        }
        func undated(_ sequence: Int, _ taken: BootInstant?) -> PhotoIndex.Entry {
            PhotoIndex.Entry(
                name: PhotoName(dateTime: nil, sequence: sequence).fileName, state: .kept, size: 10, taken: taken)
        }
        let entries = [
            Self.entry("HeyLook_2026-11-26_20-00-00_000001.jpg"),
            undated(2, BootInstant(boot: String(repeating: "0", count: 32), instant: .seconds(400))),
            undated(3, nil),
            undated(4, BootInstant(boot: boot, instant: .seconds(400))),
            undated(5, BootInstant(boot: boot, instant: .seconds(995.5))),
            Self.entry("HeyLook_2026-11-27_13-00-10_000006.jpg"),
        ]
        let listing = GalleryListing(entries, dating: dating)
        #expect(listing.photos.map(\.sequence) == [6, 5, 4, 1, 3, 2])
        #expect(listing.days == ["2026-11-27", "2026-11-26", nil])
        let five = try #require(listing.photos.first { $0.sequence == 5 })
        #expect(five.day == "2026-11-27" && five.time == "12:59:55" && five.dated == 1_795_780_800 - 5)
        let four = try #require(listing.photos.first { $0.sequence == 4 })
        #expect(four.time == "12:50:00" && four.dated == 1_795_780_800 - 600)
        #expect(listing.photos(onDay: "2026-11-27").map(\.sequence) == [4, 5, 6])
        #expect(listing.photos(onDay: nil).map(\.sequence) == [2, 3])
        #expect(GalleryListing(entries).photos.filter { $0.day == nil }.map(\.sequence) == [5, 4, 3, 2])
        // Without the mark (a later boot), a date the booth recorded in the index still dates it.
        var recorded = entries
        recorded[1].dated = 1_795_780_800 - 3600
        let later = GalleryListing(recorded, dating: PhotoDating(clock: nil, localTime: dating.localTime))
        #expect(later.photos.filter { $0.day != nil }.map(\.sequence) == [6, 2, 1])
        #expect(later.photo(named: PhotoName(dateTime: nil, sequence: 2).fileName)?.time == "12:00:00")
    }
}

@Suite struct GalleryPageTests {
    @Test func namesAreEscapedEverywhere() {
        #expect(GalleryPage.escape("<a href=\"x\">&'") == "&lt;a href=&quot;x&quot;&gt;&amp;&#39;")
    }

    @Test func theGalleryLinksEachPhotoByNameAndEachDaysZIP() {
        let listing = GalleryListing(GalleryListingTests.entries)
        let html = GalleryPage.gallery(listing, page: 1, pageSize: 60)
        #expect(html.contains("href=\"/photo/HeyLook_2026-11-22_09-02-00_000007.jpg\""))
        #expect(html.contains("src=\"/thumb/HeyLook_undated_000003.jpg\" loading=\"lazy\""))
        #expect(html.contains("href=\"/zip/day/2026-11-22\""))
        #expect(html.contains("href=\"/zip/day/undated\""))
        #expect(html.contains("22 November 2026"))
        #expect(!html.contains("000005"), "a retake is not on the page")
        #expect(!html.contains("id=\"older\""), "one page only")
        // Nothing from outside the booth.
        #expect(!html.contains("http://") && !html.contains("https://"))
    }

    @Test func aPhotoPageLinksItsNeighboursAndTheOriginal() {
        let listing = GalleryListing(GalleryListingTests.entries)
        let photo = listing.photo(named: "HeyLook_2026-11-21_10-00-00_000001.jpg")!
        let (newer, older) = listing.neighbours(of: photo.name)
        let html = GalleryPage.photo(photo, newer: newer, older: older)
        #expect(html.contains("data-newer=\"/photo/HeyLook_2026-11-21_10-05-00_000002.jpg\""))
        #expect(html.contains("data-older=\"/photo/HeyLook_undated_000006.jpg\""))
        #expect(html.contains("href=\"/original/HeyLook_2026-11-21_10-00-00_000001.jpg?download=1\""))
    }

    @Test func theCodePageSaysWhenTheCodeWasWrong() {
        #expect(!GalleryPage.code(wrong: false).contains("id=\"wrong\""))
        #expect(GalleryPage.code(wrong: true).contains("id=\"wrong\""))
    }
}

@Suite struct AccessGateTests {
    let gate = AccessGate(code: "K7P-Q2M", token: "0123456789abcdef0123456789abcdef")

    @Test func theCodeIsReadLikeAPersonTypesIt() {
        #expect(gate.accepts("K7P-Q2M"))
        #expect(gate.accepts("k7p q2m"))
        #expect(gate.accepts("K7PQ2M"))
        #expect(!gate.accepts("K7PQ2N"))
        #expect(!gate.accepts("K7PQ2"))
        #expect(!gate.accepts(""))
    }

    @Test func onlyTheTokenAdmits() {
        #expect(gate.admits(cookie: "0123456789abcdef0123456789abcdef"))
        #expect(!gate.admits(cookie: "0123456789abcdef0123456789abcdee"))
        #expect(!gate.admits(cookie: "K7P-Q2M"), "the code itself is not the cookie")
        #expect(!gate.admits(cookie: nil))
    }

    @Test func formValuesAreDecoded() {
        #expect(AccessGate.formValue("code", in: Array("a=1&code=k7p+q2m%2D".utf8)) == "k7p q2m-")
        #expect(AccessGate.formValue("code", in: Array("code=%zz".utf8)) == nil)
        #expect(AccessGate.formValue("code", in: Array("code=%4".utf8)) == nil)
        #expect(AccessGate.formValue("code", in: Array("other=1".utf8)) == nil)
        #expect(AccessGate.formValue("code", in: Array("code=".utf8)) == "")
    }
}
