// PrintLayout: where a print's photos and caption go on the page, in millimetres.

/// A print's page: its size (the printer's media), and where its photos and caption go, in millimetres from the top
/// left. `photo`: one photo filling the page (turned to the photo's orientation). `strip`: a 4×6 in page holding two
/// identical 2×6 in strips side by side (cut down the middle), each the burst's shots stacked (2 to 4). `grid`: the
/// burst's shots two by two on the page turned landscape. Photos fill their place, cropped at the centre; the caption
/// (a title, a date) goes in a band at the foot of the page, or of each strip.
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

    /// The caption band's height, in millimetres.
    public static let captionHeight = 11.0
    /// The most shots a strip or a grid holds.
    public static let maximumShots = 4

    public init(kind: Kind, media: Media = .fourBySix, margin: Double = 3, captioned: Bool = false) {
        self.kind = kind
        self.media = media.size
        self.margin = margin
        self.captioned = captioned
    }

    public static func == (a: PrintLayout, b: PrintLayout) -> Bool {
        a.kind == b.kind && a.media == b.media && a.margin == b.margin && a.captioned == b.captioned
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        hasher.combine(media.width)
        hasher.combine(media.height)
        hasher.combine(margin)
        hasher.combine(captioned)
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

    /// Where each photo goes, in order, and where each caption band goes (one per strip), for `shots` photos.
    public func places(shots: Int, aspect: Double) -> (photos: [Place], captions: [Place]) {
        let count = max(1, kind == .photo ? 1 : min(shots, Self.maximumShots))
        let page = page(shots: shots, aspect: aspect)
        let band = captioned ? Self.captionHeight : 0
        switch kind {
        case .photo:
            let photo = Place(
                x: margin, y: margin, width: page.width - 2 * margin, height: page.height - 2 * margin - band)
            return ([photo], captioned ? [caption(x: 0, width: page.width, page: page)] : [])
        case .strip:
            // Two strips, each `page.width / 2` wide: the cut goes down the middle, each strip keeping its margins.
            let stripWidth = page.width / 2
            let height = (page.height - 2 * margin - band - Double(count - 1) * margin) / Double(count)
            var photos: [Place] = []
            var captions: [Place] = []
            for strip in 0..<2 {
                let left = Double(strip) * stripWidth
                for shot in 0..<count {
                    photos.append(
                        Place(
                            x: left + margin, y: margin + Double(shot) * (height + margin),
                            width: stripWidth - 2 * margin, height: height))
                }
                if captioned { captions.append(caption(x: left, width: stripWidth, page: page)) }
            }
            return (photos, captions)
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
            return (photos, captioned ? [caption(x: 0, width: page.width, page: page)] : [])
        }
    }

    /// The caption band at the foot of a page (or a strip) `width` wide from `x`.
    private func caption(x: Double, width: Double, page: (width: Double, height: Double)) -> Place {
        Place(
            x: x + margin, y: page.height - margin - Self.captionHeight, width: width - 2 * margin,
            height: Self.captionHeight)
    }
}
