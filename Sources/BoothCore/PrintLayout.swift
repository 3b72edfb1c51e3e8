// PrintLayout: where a print's photos and caption go on the page, in millimetres.

/// A print's page: its size (the printer's media), and where its photos and caption go, in millimetres from the top
/// left. `photo`: one photo filling the page (turned to the photo's orientation). `strip`: a 4×6 in page holding two
/// identical 2×6 in strips side by side (cut down the middle), each the burst's shots stacked (2 to 4). `grid`: the
/// burst's shots two by two on the page turned landscape. Photos fill their place, cropped at the centre; the caption
/// (a title, a date) and the logo go in a band at the foot of the page, or of each strip. The logo keeps its shape at
/// the band's height less `logoPadding` above and below: alone it is centred in the band; beside a caption it sits at
/// the band's left, at most `logoShare` of its width, and the caption is centred on the page beside it (on a narrow
/// strip, centred in the room right of the logo), never over it.
public struct PrintLayout: Sendable, Hashable {
    /// How the photos are placed (`print.layout`).
    public enum Kind: String, CaseIterable, Sendable {
        case photo, strip, grid
    }

    /// The printer's paper (`print.media`), portrait.
    public enum Media: String, CaseIterable, Sendable {
        /// 4×6 in (10×15 cm), the photo printers' postcard (a strip layout cuts it into two 2×6 in strips).
        case fourBySix = "4x6"
        /// 5×7 in.
        case fiveBySeven = "5x7"
        /// A6, 105×148 mm.
        case a6

        /// Width and height in millimetres, portrait.
        public var size: (width: Double, height: Double) {
            switch self {
            case .fourBySix: (101.6, 152.4)
            case .fiveBySeven: (127, 177.8)
            case .a6: (105, 148)
            }
        }
    }

    /// A rectangle in millimetres from the page's top left corner.
    public struct Place: Sendable, Hashable {
        public var x, y, width, height: Double

        public init(x: Double, y: Double, width: Double, height: Double) {
            (self.x, self.y, self.width, self.height) = (x, y, width, height)
        }
    }

    /// How the photos are placed.
    public var kind: Kind
    /// The printer's media, portrait: width × height in millimetres (4×6 in by default).
    public var media: (width: Double, height: Double)
    /// The white border the printer keeps, and the gap between photos, in millimetres.
    public var margin: Double
    /// Whether there is a caption (a title or a date): it takes a band of `captionHeight` at the foot.
    public var captioned: Bool
    /// The logo's width over its height, nil for no logo (`print.logo`): it takes the band too.
    public var logoAspect: Double?

    /// The caption band's height, in millimetres.
    public static let captionHeight = 11.0
    /// The white kept above and below the logo in its band, in millimetres.
    public static let logoPadding = 1.0
    /// The white between the logo and the caption, in millimetres.
    public static let logoGap = 1.5
    /// The most of the band's width a logo beside a caption takes.
    public static let logoShare = 0.25
    /// The most shots a strip or a grid holds.
    public static let maximumShots = 4

    public init(
        kind: Kind, media: Media = .fourBySix, margin: Double = 3, captioned: Bool = false, logoAspect: Double? = nil
    ) {
        self.kind = kind
        self.media = media.size
        self.margin = margin
        self.captioned = captioned
        self.logoAspect = logoAspect
    }

    /// Whether the page has a band at its foot (a caption, a logo, or both).
    public var banded: Bool { captioned || logoShape != nil }

    /// The logo's width over its height, when it has a shape to draw.
    private var logoShape: Double? { logoAspect.flatMap { $0 > 0 && $0.isFinite ? $0 : nil } }

    public static func == (a: PrintLayout, b: PrintLayout) -> Bool {
        a.kind == b.kind && a.media == b.media && a.margin == b.margin && a.captioned == b.captioned
            && a.logoAspect == b.logoAspect
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        hasher.combine(media.width)
        hasher.combine(media.height)
        hasher.combine(margin)
        hasher.combine(captioned)
        hasher.combine(logoAspect)
    }

    /// The page's width and height for `shots` photos (only the first `maximumShots` of a burst are placed) whose
    /// width over height is `aspect`.
    public func page(shots: Int, aspect: Double) -> (width: Double, height: Double) {
        switch kind {
        case .photo: aspect >= 1 ? (media.height, media.width) : media
        case .strip: media
        case .grid: min(shots, Self.maximumShots) <= 1 && aspect < 1 ? media : (media.height, media.width)
        }
    }

    /// Where each photo goes, in order, where each caption goes (the band less the logo's side; one per strip) and
    /// where each logo goes (one per band), for `shots` photos.
    public func places(shots: Int, aspect: Double) -> (photos: [Place], captions: [Place], logos: [Place]) {
        let count = max(1, kind == .photo ? 1 : min(shots, Self.maximumShots))
        let page = page(shots: shots, aspect: aspect)
        let band = banded ? Self.captionHeight : 0
        var captions: [Place] = []
        var logos: [Place] = []
        func addBand(x: Double, width: Double) {
            let (caption, logo) = bandPlaces(x: x, width: width, page: page)
            captions += caption.map { [$0] } ?? []
            logos += logo.map { [$0] } ?? []
        }
        switch kind {
        case .photo:
            let photo = Place(
                x: margin, y: margin, width: page.width - 2 * margin, height: page.height - 2 * margin - band)
            if banded { addBand(x: 0, width: page.width) }
            return ([photo], captions, logos)
        case .strip:
            // Two strips, each `page.width / 2` wide: the cut goes down the middle, each strip keeping its margins.
            let stripWidth = page.width / 2
            let height = (page.height - 2 * margin - band - Double(count - 1) * margin) / Double(count)
            var photos: [Place] = []
            for strip in 0..<2 {
                let left = Double(strip) * stripWidth
                for shot in 0..<count {
                    photos.append(
                        Place(
                            x: left + margin, y: margin + Double(shot) * (height + margin),
                            width: stripWidth - 2 * margin, height: height))
                }
                if banded { addBand(x: left, width: stripWidth) }
            }
            return (photos, captions, logos)
        case .grid:
            let columns = count == 1 ? 1 : 2
            let rows = (count + columns - 1) / columns
            let width = (page.width - 2 * margin - Double(columns - 1) * margin) / Double(columns)
            let height = (page.height - 2 * margin - band - Double(rows - 1) * margin) / Double(rows)
            let photos = (0..<count).map { shot in
                Place(
                    x: margin + Double(shot % columns) * (width + margin),
                    y: margin + Double(shot / columns) * (height + margin), width: width, height: height)
            }
            if banded { addBand(x: 0, width: page.width) }
            return (photos, captions, logos)
        }
    }

    /// The caption's and the logo's places in the band at the foot of a page (or a strip) `width` wide from `x`.
    private func bandPlaces(
        x: Double, width: Double, page: (width: Double, height: Double)
    ) -> (caption: Place?, logo: Place?) {
        let band = Place(
            x: x + margin, y: page.height - margin - Self.captionHeight, width: width - 2 * margin,
            height: Self.captionHeight)
        guard let logoAspect = logoShape else { return (captioned ? band : nil, nil) }
        let widest = captioned ? band.width * Self.logoShare : band.width
        let height = min(band.height - 2 * Self.logoPadding, widest / logoAspect)
        let logoWidth = height * logoAspect
        let y = band.y + (band.height - height) / 2
        guard captioned else {
            return (nil, Place(x: band.x + (band.width - logoWidth) / 2, y: y, width: logoWidth, height: height))
        }
        let logo = Place(x: band.x, y: y, width: logoWidth, height: height)
        let side = logoWidth + Self.logoGap
        // A strip is too narrow to give the caption's other side up too: there it takes the room beside the logo.
        let caption =
            kind == .strip
            ? Place(x: band.x + side, y: band.y, width: band.width - side, height: band.height)
            : Place(x: band.x + side, y: band.y, width: band.width - 2 * side, height: band.height)
        return (caption, logo)
    }
}
