// GalleryPrintTests: the gallery's print request names a photo of the store and nothing else; answers round-trip.
import PhotoModel
import Testing

@Suite struct GalleryPrintTests {
    @Test func aRequestNamesAPhotoOfTheStore() {
        for name in ["HeyLook_2026-12-05_14-03-07_000012.jpg", "HeyLook_undated_000003.jpg"] {
            #expect(GalleryPrint.photo(inRequest: GalleryPrint.request(photo: name)) == name)
        }
    }

    @Test(arguments: [
        "print ../index.txt", "print /etc/passwd", "print HeyLook_2026-12-05_14-03-07_000012.jpg\n",
        "print discarded/HeyLook_2026-12-05_14-03-07_000012.jpg", "print HeyLook_2026-12-05_14-03-07_000012-strip.jpg",
        "reset", "printHeyLook_undated_000003.jpg", "print ", "",
    ])
    func anythingElseIsNoRequest(_ message: String) {
        #expect(GalleryPrint.photo(inRequest: Array(message.utf8)) == nil)
    }

    @Test func answersRoundTripAndNothingElseIsOne() {
        for answer in [GalleryPrint.Answer.sent(pages: 2), .waiting, .refused("HeyLook_x.jpg was printed 1 time")] {
            #expect(GalleryPrint.Answer(message: answer.message) == answer)
        }
        for junk in ["", "sent", "sent -1", "sent x", "refused ", "wait", "waiting now"] {
            #expect(GalleryPrint.Answer(message: Array(junk.utf8)) == nil, "\(junk)")
        }
    }
}
