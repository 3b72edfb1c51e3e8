// PrintLayoutTests: every layout's places lie on the page, inside its margins, apart, its strips alike, its logo in the band.
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

    /// Every kind on every media, with a caption or not, with a logo of each shape or none.
    static let banded: [(PrintLayout.Kind, PrintLayout.Media, Bool, Double?)] = PrintLayout.Kind.allCases.flatMap {
        kind in
        PrintLayout.Media.allCases.flatMap { media in
            [false, true].flatMap { captioned in [nil, 1, 4, 0.25, 12].map { (kind, media, captioned, $0) } }
        }
    }

    @Test(arguments: banded)
    func everyPlaceWithALogoIsOnThePageAndApartFromTheOthers(
        kind: PrintLayout.Kind, media: PrintLayout.Media, captioned: Bool, logo: Double?
    ) {
        let layout = PrintLayout(kind: kind, media: media, margin: 3, captioned: captioned, logoAspect: logo)
        for shots in 1...4 {
            for aspect in [4.0 / 3, 3.0 / 4] {
                let page = layout.page(shots: shots, aspect: aspect)
                let places = layout.places(shots: shots, aspect: aspect)
                let all = places.photos + places.captions + places.logos
                #expect(all.allSatisfy { inside($0, page, margin: 3) }, "\(kind) \(media) \(shots) shots: \(all)")
                for (i, a) in all.enumerated() {
                    for b in all[(i + 1)...] { #expect(apart(a, b), "\(kind) \(shots) shots: \(a) and \(b) overlap") }
                }
                let bands = kind == .strip ? 2 : 1
                #expect(places.logos.count == (logo == nil ? 0 : bands))
                #expect(places.captions.count == (captioned ? bands : 0))
            }
        }
    }

    @Test(arguments: banded.filter { $0.3 != nil })
    func aLogoKeepsItsShapeInTheBandBesideACentredCaption(
        kind: PrintLayout.Kind, media: PrintLayout.Media, captioned: Bool, logo: Double?
    ) throws {
        let aspect = try #require(logo)
        let layout = PrintLayout(kind: kind, media: media, margin: 3, captioned: captioned, logoAspect: aspect)
        let page = layout.page(shots: 4, aspect: 4.0 / 3)
        let places = layout.places(shots: 4, aspect: 4.0 / 3)
        let bandTop = page.height - 3 - PrintLayout.captionHeight
        let bandWidth = (kind == .strip ? page.width / 2 : page.width) - 6
        for (index, place) in places.logos.enumerated() {
            let bandLeft = 3 + Double(index) * page.width / 2
            #expect(abs(place.width / place.height - aspect) < 1e-9, "its shape: \(place)")
            #expect(place.y >= bandTop + PrintLayout.logoPadding - 1e-9)
            #expect(place.y + place.height <= page.height - 3 - PrintLayout.logoPadding + 1e-9)
            #expect(abs((place.y - bandTop) - (page.height - 3 - place.y - place.height)) < 1e-9, "centred in height")
            #expect(place.x >= bandLeft - 1e-9 && place.x + place.width <= bandLeft + bandWidth + 1e-9)
            let highest = PrintLayout.captionHeight - 2 * PrintLayout.logoPadding
            guard captioned else {
                // Alone it is centred in its band, as high as the band allows unless the band is too narrow.
                #expect(abs(place.x - bandLeft - (bandLeft + bandWidth - place.x - place.width)) < 1e-9)
                #expect(abs(place.height - min(highest, bandWidth / aspect)) < 1e-9)
                continue
            }
            // Beside a caption it is at the band's left, a quarter of its width at most.
            #expect(abs(place.x - bandLeft) < 1e-9)
            #expect(place.width <= bandWidth * PrintLayout.logoShare + 1e-9)
            #expect(abs(place.height - min(highest, bandWidth * PrintLayout.logoShare / aspect)) < 1e-9)
            let caption = places.captions[index]
            #expect(caption.x >= place.x + place.width + PrintLayout.logoGap - 1e-9, "the caption is beside it")
            #expect(abs(caption.x + caption.width - (bandLeft + bandWidth)) < 1e-9 || kind != .strip)
            if kind != .strip {
                // On a page the caption stays centred on the page.
                #expect(abs(caption.x + caption.width / 2 - page.width / 2) < 1e-9)
            }
        }
    }

    @Test func aLogoAloneMakesTheBandAndTheCaptionLeavesItsPlace() {
        let plain = PrintLayout(kind: .grid).places(shots: 4, aspect: 4.0 / 3)
        let logo = PrintLayout(kind: .grid, logoAspect: 2).places(shots: 4, aspect: 4.0 / 3)
        let both = PrintLayout(kind: .grid, captioned: true, logoAspect: 2).places(shots: 4, aspect: 4.0 / 3)
        let captioned = PrintLayout(kind: .grid, captioned: true).places(shots: 4, aspect: 4.0 / 3)
        #expect(logo.photos == captioned.photos && logo.photos != plain.photos, "the band takes the photos' room")
        #expect(logo.captions.isEmpty && logo.logos.count == 1 && plain.logos.isEmpty && captioned.logos.isEmpty)
        #expect(both.captions[0].width < captioned.captions[0].width)
        // Not a logo: no shape, no band.
        #expect(PrintLayout(kind: .grid, logoAspect: 0).places(shots: 4, aspect: 4.0 / 3).photos == plain.photos)
        #expect(PrintLayout(kind: .grid, logoAspect: .nan).places(shots: 4, aspect: 4.0 / 3).logos.isEmpty)
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
