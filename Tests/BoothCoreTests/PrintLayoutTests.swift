// PrintLayoutTests: every layout's places lie on the page, inside its margins, apart, and its strips alike.
import BoothCore
import Testing

struct PrintLayoutTests {
    private func inside(_ place: PrintLayout.Place, _ page: (width: Double, height: Double), margin: Double) -> Bool {
        place.x >= margin - 1e-9 && place.y >= margin - 1e-9 && place.x + place.width <= page.width - margin + 1e-9
            && place.y + place.height <= page.height - margin + 1e-9 && place.width > 0 && place.height > 0
    }

    private func apart(_ a: PrintLayout.Place, _ b: PrintLayout.Place) -> Bool {
        a.x + a.width <= b.x + 1e-9 || b.x + b.width <= a.x + 1e-9 || a.y + a.height <= b.y + 1e-9
            || b.y + b.height <= a.y + 1e-9
    }

    @Test(
        arguments: PrintLayout.Kind.allCases.flatMap { kind in
            PrintLayout.Media.allCases.flatMap { media in [false, true].map { (kind, media, $0) } }
        })
    func everyPlaceIsOnThePageInsideItsMarginAndApartFromTheOthers(
        kind: PrintLayout.Kind, media: PrintLayout.Media, captioned: Bool
    ) {
        let layout = PrintLayout(kind: kind, media: media, margin: 4, captioned: captioned)
        for shots in 1...6 {
            for aspect in [4.0 / 3, 3.0 / 4, 16.0 / 9, 1] {
                let page = layout.page(shots: shots, aspect: aspect)
                let places = layout.places(shots: shots, aspect: aspect)
                let all = places.photos + places.captions
                #expect(all.allSatisfy { inside($0, page, margin: 4) }, "\(kind) \(media) \(shots) shots: \(all)")
                for (i, a) in all.enumerated() {
                    for b in all[(i + 1)...] { #expect(apart(a, b), "\(kind) \(shots) shots: \(a) and \(b) overlap") }
                }
                #expect(places.captions.isEmpty != captioned)
                let count = kind == .photo ? 1 : min(shots, PrintLayout.maximumShots)
                #expect(places.photos.count == (kind == .strip ? 2 * count : count))
            }
        }
    }

    @Test func aStripIsTwoAlikeStripsOnA4By6PortraitCutDownTheMiddle() {
        let layout = PrintLayout(kind: .strip, captioned: true)
        let page = layout.page(shots: 3, aspect: 4.0 / 3)
        #expect(page == (101.6, 152.4))
        let places = layout.places(shots: 3, aspect: 4.0 / 3)
        let (left, right) = (places.photos.prefix(3), places.photos.suffix(3))
        for (a, b) in zip(left, right) {
            #expect(abs(b.x - a.x - 50.8) < 1e-9 && a.y == b.y && a.width == b.width && a.height == b.height)
            #expect(a.x + a.width < 50.8 && b.x > 50.8, "neither strip crosses the cut")
        }
        #expect(places.captions.count == 2)
    }

    @Test func aLandscapePhotoGetsALandscapePageAndAPortraitOneAPortraitPage() {
        let photo = PrintLayout(kind: .photo)
        #expect(photo.page(shots: 1, aspect: 4.0 / 3) == (152.4, 101.6))
        #expect(photo.page(shots: 1, aspect: 3.0 / 4) == (101.6, 152.4))
        #expect(PrintLayout(kind: .grid).page(shots: 4, aspect: 3.0 / 4) == (152.4, 101.6))
        #expect(PrintLayout(kind: .photo, media: .a6).page(shots: 1, aspect: 1.5) == (148, 105))
    }
}
