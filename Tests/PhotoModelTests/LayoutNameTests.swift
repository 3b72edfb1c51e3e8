// LayoutNameTests: a layout's name is its first photo's with the kind before the extension, and nothing else is one.
import PhotoModel
import Testing

@Suite struct LayoutNameTests {
    @Test func aLayoutsNameRoundTripsForEveryKindDatedOrNot() throws {
        let dated = PhotoName(
            dateTime: .init(year: 2026, month: 12, day: 5, hour: 14, minute: 3, second: 7), sequence: 12)
        for photo in [dated, PhotoName(dateTime: nil, sequence: 3)] {
            for kind in LayoutName.kinds {
                let name = LayoutName(photo: photo, kind: kind)
                #expect(LayoutName(fileName: name.fileName) == name)
            }
        }
        #expect(
            LayoutName(photo: dated, kind: "strip").fileName == "HeyLook_2026-12-05_14-03-07_000012-strip.jpg")
        #expect(LayoutName.fileNames(of: dated).count == LayoutName.kinds.count)
    }

    @Test(arguments: [
        "HeyLook_2026-12-05_14-03-07_000012.jpg",  // a photo
        "HeyLook_2026-12-05_14-03-07_000012-poster.jpg",  // no such kind
        "HeyLook_2026-12-05_14-03-07_000012-strip.png",
        ".HeyLook_2026-12-05_14-03-07_000012-strip.jpg.tmp",
        "HeyLook_2026-12-05_14-03-07_12-strip.jpg",  // not the store's padding
        "strip.jpg", "-strip.jpg", "",
    ])
    func anythingElseIsNoLayout(_ name: String) {
        #expect(LayoutName(fileName: name) == nil)
    }
}
