// LayoutRendererTests: the rendered page decoded: its size, each photo's and the logo's pixels where the layout put them.
import BoothCore
import BoothTestSupport
import PhotoEncoding
import Printing
import Testing

/// Renders with the real cairo (PageCanvas) and libjpeg, then decodes the page and looks at its pixels.
struct LayoutRendererTests {
    typealias Colour = (red: UInt8, green: UInt8, blue: UInt8)

    /// A `width` × `height` JPEG, its top half `top` and its bottom half `bottom`, with EXIF `orientation`.
    private func photo(
        _ top: Colour, _ bottom: Colour? = nil, width: Int = 800, height: Int = 600, orientation: Int = 1
    ) throws -> [UInt8] {
        var bytes = [UInt8]()
        bytes.reserveCapacity(width * height * 3)
        for y in 0..<height {
            let c = y < height / 2 ? top : (bottom ?? top)
            for _ in 0..<width { bytes += [c.red, c.green, c.blue] }
        }
        let frame = PixelFrame(
            width: width, height: height, format: .rgb24, planes: [PixelPlane(bytes: bytes, stride: width * 3)])
        return try JPEGEncoder.encode(
            frame,
            options: JPEGOptions(
                quality: 95, exif: ExifFields(dateTime: nil, cameraModel: "test", orientation: orientation)))
    }

    /// The decoded page's pixel at millimetres `x`, `y`.
    private func pixel(_ page: PixelFrame, x: Double, y: Double, dpi: Double = 300) -> Colour {
        let (px, py) = (Int(x * dpi / 25.4), Int(y * dpi / 25.4))
        let at = py * page.planes[0].stride + px * 3
        let b = page.planes[0].bytes
        return (b[at], b[at + 1], b[at + 2])
    }

    private func near(_ a: Colour, _ b: Colour) -> Bool {
        abs(Int(a.red) - Int(b.red)) < 24 && abs(Int(a.green) - Int(b.green)) < 24
            && abs(Int(a.blue) - Int(b.blue)) < 24
    }

    private let colours: [Colour] = [(220, 30, 30), (30, 200, 40), (30, 40, 220), (230, 200, 20)]

    @Test func aStripPutsEachShotInItsPlaceTwiceAt300DPI() throws {
        let photos = try colours.enumerated().map { ("shot \($0.offset)", try photo($0.element)) }
        let layout = PrintLayout(kind: .strip)
        let page = try LayoutRenderer.render(layout, photos: photos)
        #expect((page.width, page.height) == (1200, 1800))
        let decoded = try JPEGInspector.decode(page.jpeg)
        #expect((decoded.width, decoded.height) == (1200, 1800))
        let places = layout.places(shots: 4, aspect: 4.0 / 3).photos
        for (index, place) in places.enumerated() {
            let seen = pixel(decoded, x: place.x + place.width / 2, y: place.y + place.height / 2)
            #expect(near(seen, colours[index % 4]), "place \(index): \(seen)")
        }
        // The margins and the cut stay white.
        #expect(near(pixel(decoded, x: 1, y: 1), (255, 255, 255)))
        #expect(near(pixel(decoded, x: 50.8, y: 40), (255, 255, 255)))
    }

    @Test func aPhotoIsTurnedUprightAndFillsItsPlaceCroppedAtTheCentre() throws {
        // Stored upside down (orientation 3): red at the stored top is the bottom as seen.
        let stored = try photo((220, 30, 30), (30, 40, 220), orientation: 3)
        let layout = PrintLayout(kind: .photo)
        let page = try LayoutRenderer.render(layout, photos: [("upside down", stored)])
        let decoded = try JPEGInspector.decode(page.jpeg)
        #expect((decoded.width, decoded.height) == (1800, 1200), "a landscape photo prints landscape")
        let place = layout.places(shots: 1, aspect: 4.0 / 3).photos[0]
        #expect(near(pixel(decoded, x: place.x + place.width / 2, y: place.y + 5), (30, 40, 220)))
        #expect(near(pixel(decoded, x: place.x + place.width / 2, y: place.y + place.height - 5), (220, 30, 30)))
        // Filled to its edges (4:3 into a wider place: cropped, not letterboxed).
        #expect(near(pixel(decoded, x: place.x + 1, y: place.y + place.height / 4), (30, 40, 220)))
    }

    @Test func aCaptionIsDrawnInItsBandAndNoneWithoutOne() throws {
        let photos = try colours.prefix(2).enumerated().map { ("shot \($0.offset)", try photo($0.element)) }
        func darkInBand(_ title: String, _ date: String) throws -> Int {
            let layout = PrintLayout(kind: .grid, captioned: true)
            let decoded = try JPEGInspector.decode(
                try LayoutRenderer.render(layout, photos: photos, title: title, date: date).jpeg)
            let band = layout.places(shots: 2, aspect: 4.0 / 3).captions[0]
            var dark = 0
            for y in stride(from: band.y, to: band.y + band.height, by: 0.2) {
                for x in stride(from: band.x, to: band.x + band.width, by: 0.5)
                where pixel(decoded, x: x, y: y).red < 128 {
                    dark += 1
                }
            }
            return dark
        }
        #expect(try darkInBand("Emma turns 5", "5 December 2026") > 100)
        #expect(try darkInBand("", "5 December 2026") > 50)
        // Without one the photos take the band's room, down to the margin.
        let plain = try JPEGInspector.decode(try LayoutRenderer.render(PrintLayout(kind: .grid), photos: photos).jpeg)
        let band = PrintLayout(kind: .grid, captioned: true).places(shots: 2, aspect: 4.0 / 3).captions[0]
        #expect(near(pixel(plain, x: band.x + band.width / 4, y: band.y + band.height / 2), colours[0]))
    }

    /// A 40 × 20 logo: its left half opaque magenta, its right half transparent.
    private func logo() throws -> PrintLogo {
        let png = PNGFixtures.rgba(width: 40, height: 20) { x, _ in x < 20 ? [200, 0, 150, 255] : [0, 0, 0, 0] }
        return try PrintLogo(png: png, path: "/etc/heylook/logo.png")
    }

    /// How many pixels of `place` on `page` are dark (every channel under 128), sampled every 0.2 mm.
    private func dark(_ page: PixelFrame, in place: PrintLayout.Place) -> Int {
        var count = 0
        for y in stride(from: place.y, to: place.y + place.height, by: 0.2) {
            for x in stride(from: place.x, to: place.x + place.width, by: 0.2) {
                let c = pixel(page, x: x, y: y)
                if c.red < 128 && c.green < 128 && c.blue < 128 { count += 1 }
            }
        }
        return count
    }

    @Test(arguments: PrintLayout.Kind.allCases)
    func theLogoIsDrawnWherePrintLayoutPlacesItOverTheWhitePageBesideTheCaption(kind: PrintLayout.Kind) throws {
        let photos = try colours.enumerated().map { ("shot \($0.offset)", try photo($0.element)) }
        let shots = kind == .photo ? 1 : 4
        let logo = try logo()
        let page = try LayoutRenderer.render(
            PrintLayout(kind: kind), photos: Array(photos.prefix(shots)), title: "Emma turns 5",
            date: "5 December 2026", logo: logo)
        #expect(page.logoProblem == nil)
        let decoded = try JPEGInspector.decode(page.jpeg)
        let places = PrintLayout(kind: kind, captioned: true, logoAspect: 2).places(shots: shots, aspect: 4.0 / 3)
        #expect(places.logos.count == (kind == .strip ? 2 : 1))
        for (logo, caption) in zip(places.logos, places.captions) {
            let (middle, half) = (logo.y + logo.height / 2, logo.width / 2)
            // Its opaque half as it is, its transparent half the white page, its outside white.
            #expect(near(pixel(decoded, x: logo.x + half / 2, y: middle), (200, 0, 150)), "\(kind) \(logo)")
            #expect(near(pixel(decoded, x: logo.x + 0.3, y: logo.y + 0.3), (200, 0, 150)), "fills its place")
            #expect(near(pixel(decoded, x: logo.x + half * 1.5, y: middle), (255, 255, 255)))
            #expect(near(pixel(decoded, x: logo.x - 0.4, y: middle), (255, 255, 255)))
            #expect(near(pixel(decoded, x: logo.x + half / 2, y: logo.y - 0.4), (255, 255, 255)))
            #expect(near(pixel(decoded, x: logo.x + half / 2, y: logo.y + logo.height + 0.4), (255, 255, 255)))
            // The caption is in its own place, none of it over the logo.
            #expect(dark(decoded, in: caption) > 100, "\(kind): the caption is drawn")
            #expect(dark(decoded, in: logo) == 0, "\(kind): nothing dark over the logo")
        }
    }

    @Test func aLogoAloneIsCentredInTheBandAndTheBandGoesWithIt() throws {
        let photos = try colours.prefix(2).enumerated().map { ("shot \($0.offset)", try photo($0.element)) }
        let decoded = try JPEGInspector.decode(
            try LayoutRenderer.render(PrintLayout(kind: .grid), photos: photos, logo: try logo()).jpeg)
        let place = PrintLayout(kind: .grid, logoAspect: 2).places(shots: 2, aspect: 4.0 / 3).logos[0]
        #expect(abs(place.x + place.width / 2 - 152.4 / 2) < 1e-9)
        #expect(near(pixel(decoded, x: place.x + place.width / 4, y: place.y + place.height / 2), (200, 0, 150)))
    }

    @Test func aLogoCairoCannotDrawIsLeftOutAndThePageSaysWhy() throws {
        let photos = try colours.prefix(2).enumerated().map { ("shot \($0.offset)", try photo($0.element)) }
        // A good header, then no image data: only cairo finds out.
        let damaged = try PrintLogo(
            png: PNGFixtures.signature + PNGFixtures.header(width: 40, height: 20) + PNGFixtures.chunk("IEND", []),
            path: "/etc/heylook/logo.png")
        let page = try LayoutRenderer.render(PrintLayout(kind: .grid), photos: photos, logo: damaged)
        let problem = try #require(page.logoProblem)
        #expect(problem.hasPrefix("the logo could not be drawn (cairo cannot read the PNG: "), "\(problem)")
        #expect(problem.hasSuffix("): save it as PNG again"), "\(problem)")
        // Laid out without it: no band, the photos down to the margin.
        let decoded = try JPEGInspector.decode(page.jpeg)
        let band = PrintLayout(kind: .grid, logoAspect: 2).places(shots: 2, aspect: 4.0 / 3).logos[0]
        #expect(near(pixel(decoded, x: 20, y: band.y + band.height / 2), colours[0]))
    }

    @Test func aDamagedPhotoIsRefusedNamingIt() throws {
        var damaged = try photo((220, 30, 30))
        damaged.removeLast(damaged.count / 2)
        #expect(throws: PrintError.self) {
            try LayoutRenderer.render(PrintLayout(kind: .photo), photos: [("HeyLook_7.jpg", damaged)])
        }
        do {
            _ = try LayoutRenderer.render(PrintLayout(kind: .photo), photos: [("HeyLook_7.jpg", [1, 2, 3])])
            Issue.record("rendered a photo that is no JPEG")
        } catch {
            #expect(error.description.contains("HeyLook_7.jpg is not a photo the booth can print"), "\(error)")
        }
        #expect(throws: PrintError.self) { try LayoutRenderer.render(PrintLayout(kind: .photo), photos: []) }
    }
}
