// LayoutRenderer: draws a print's photos, caption and logo at the printer's resolution and encodes the page as JPEG.
import BoothCore
import PageCanvas
import PhotoEncoding

/// Renders a `PrintLayout` into a JPEG at `dpi`: each photo is decoded at the smallest of libjpeg's scales that still
/// covers its place, turned upright, cropped at the centre to its place's shape and drawn by cairo (`PageCanvas`,
/// loaded the first time a layout is rendered), with the caption (a bold title, a date) centred in its band beside the
/// logo (`PrintLayout` places both). Any thread; damaged photos or a missing cairo are a `PrintError` naming the file
/// or the fix; a logo cairo cannot draw is left out of the page, which says why (`Page.logoProblem`).
public enum LayoutRenderer {
    /// A rendered page.
    public struct Page: Sendable {
        /// The page as a JPEG.
        public var jpeg: [UInt8]
        /// Its size in pixels.
        public var width, height: Int
        /// Why the logo asked for is not on the page (it cannot be read or drawn), nil when it is or none was asked.
        public var logoProblem: String?

        public init(jpeg: [UInt8], width: Int, height: Int, logoProblem: String? = nil) {
            (self.jpeg, self.width, self.height, self.logoProblem) = (jpeg, width, height, logoProblem)
        }
    }

    /// The resolution pages are drawn at.
    public static let defaultDPI = 300.0

    /// A page drawn elsewhere (packed 8-bit RGB pixels, e.g. the join card's) as the JPEG a printer is sent.
    public static func page(pixels: [UInt8], width: Int, height: Int, quality: Int = 92) throws(PrintError) -> Page {
        let frame = PixelFrame(
            width: width, height: height, format: .rgb24, planes: [PixelPlane(bytes: pixels, stride: width * 3)])
        do {
            return Page(
                jpeg: try JPEGEncoder.encode(frame, options: JPEGOptions(quality: quality)), width: width,
                height: height)
        } catch {
            throw PrintError("the page could not be encoded: \(error)")
        }
    }

    /// Renders `photos` (JPEG files' bytes, with a name each for errors) into `layout`; `title` and `date` make the
    /// caption (either may be empty), `logo` goes beside it. A strip or grid of one photo is the photo alone. A logo
    /// cairo cannot draw (a PNG damaged past its header) is left out, the page laid out without it.
    public static func render(
        _ layout: PrintLayout, photos: [(name: String, jpeg: [UInt8])], title: String = "", date: String = "",
        logo: PrintLogo? = nil, dpi: Double = defaultDPI, quality: Int = 92
    ) throws(PrintError) -> Page {
        guard !photos.isEmpty else { throw PrintError("a layout needs at least one photo") }
        var layout = layout
        if photos.count == 1 { layout.kind = .photo }
        layout.captioned = !title.isEmpty || !date.isEmpty
        layout.logoAspect = logo?.aspect
        var upright: [PixelFrame] = []
        let first = try inspect(photos[0])
        let aspect = Double(first.width) / Double(first.height)
        let page = layout.page(shots: photos.count, aspect: aspect)
        let pixelsPerMM = dpi / 25.4
        var logoProblem: String?
        do {
            let canvas = try PageCanvas(.rgb(dpi: dpi), width: page.width, height: page.height, title: title)
            if let logo {
                // The logo first: one cairo cannot draw leaves the page laid out without it (the photos, drawn after,
                // cover the band it would have had).
                do throws(PageCanvas.Failure) {
                    for place in layout.places(shots: photos.count, aspect: aspect).logos {
                        try canvas.png(logo.png, x: place.x, y: place.y, width: place.width, height: place.height)
                    }
                } catch {
                    logoProblem = "the logo could not be drawn (\(error)): save it as PNG again"
                    layout.logoAspect = nil
                }
            }
            let places = layout.places(shots: photos.count, aspect: aspect)
            for (index, place) in places.photos.enumerated() {
                // A strip repeats its shots in the second strip: each photo is decoded once.
                let shot = index % min(photos.count, PrintLayout.maximumShots)
                if shot >= upright.count {
                    let longEdge = Int((max(place.width, place.height) * pixelsPerMM).rounded(.up))
                    upright.append(try decode(photos[shot], covering: longEdge))
                }
                let frame = cropped(upright[shot], to: place.width / place.height)
                try canvas.image(
                    frame.planes[0].bytes, pixelWidth: frame.width, pixelHeight: frame.height,
                    stride: frame.planes[0].stride, x: place.x, y: place.y, width: place.width, height: place.height)
            }
            for band in places.captions { caption(title: title, date: date, in: band, on: canvas) }
            let size = canvas.pixelSize
            var rendered = try Self.page(
                pixels: try canvas.finish(), width: size.width, height: size.height, quality: quality)
            rendered.logoProblem = logoProblem
            return rendered
        } catch let error as PageCanvas.Failure {
            throw PrintError("the layout could not be drawn: \(error)")
        } catch let error as PrintError {
            throw error
        } catch {
            throw PrintError("the layout could not be drawn: \(error)")
        }
    }

    /// The photo's size, upright.
    private static func inspect(_ photo: (name: String, jpeg: [UInt8])) throws(PrintError) -> (width: Int, height: Int)
    {
        do {
            let info = try JPEGInspector.inspect(photo.jpeg)
            let turned = ExifOrientation(exifValue: info.exif?.orientation ?? 1).swapsSides
            return turned ? (info.height, info.width) : (info.width, info.height)
        } catch {
            throw PrintError("\(photo.name) is not a photo the booth can print: \(error)")
        }
    }

    /// The photo decoded at the smallest scale whose long edge still reaches `longEdge` pixels, turned upright.
    private static func decode(
        _ photo: (name: String, jpeg: [UInt8]), covering longEdge: Int
    ) throws(PrintError)
        -> PixelFrame
    {
        do {
            let info = try JPEGInspector.inspect(photo.jpeg)
            let plan = ThumbnailPlan(sourceWidth: info.width, sourceHeight: info.height, longEdge: longEdge)
            let decoded = try JPEGThumbnail.decode(photo.jpeg, scaleDenominator: plan.scaleDenominator)
            return ExifOrientation(exifValue: info.exif?.orientation ?? 1).applied(to: decoded)
        } catch {
            throw PrintError("\(photo.name) is not a photo the booth can print: \(error)")
        }
    }

    /// The centre of `frame` with the width over height `aspect`.
    static func cropped(_ frame: PixelFrame, to aspect: Double) -> PixelFrame {
        let own = Double(frame.width) / Double(frame.height)
        var (x, y, width, height) = (0, 0, frame.width, frame.height)
        if own > aspect {
            width = max(1, Int((Double(frame.height) * aspect).rounded()))
            x = (frame.width - width) / 2
        } else if own < aspect {
            height = max(1, Int((Double(frame.width) / aspect).rounded()))
            y = (frame.height - height) / 2
        }
        guard width != frame.width || height != frame.height else { return frame }
        let source = frame.planes[0]
        var bytes = [UInt8]()
        bytes.reserveCapacity(width * height * 3)
        for row in y..<(y + height) {
            let start = row * source.stride + x * 3
            bytes += source.bytes[start..<(start + width * 3)]
        }
        return PixelFrame(
            width: width, height: height, format: .rgb24, planes: [PixelPlane(bytes: bytes, stride: width * 3)])
    }

    /// The title (bold) and the date, centred on one line in `band`, shrunk to fit its width.
    private static func caption(title: String, date: String, in band: PrintLayout.Place, on canvas: PageCanvas) {
        let gap = title.isEmpty || date.isEmpty ? "" : "  "
        var size = band.height * 0.5
        func width(_ size: Double) -> Double {
            canvas.width(of: title, size: size, bold: true) + canvas.width(of: gap + date, size: size * 0.8)
        }
        while size > 1.5 && width(size) > band.width { size *= 0.9 }
        var x = band.x + (band.width - width(size)) / 2
        // The capitals' middle (DejaVu's are 0.73 of the size high) on the band's: level with the logo when shrunk.
        let baseline = band.y + band.height / 2 + size * 0.365
        if !title.isEmpty {
            canvas.text(title, x: x, baseline: baseline, size: size, bold: true, gray: 0.1)
            x += canvas.width(of: title, size: size, bold: true)
        }
        if !date.isEmpty { canvas.text(gap + date, x: x, baseline: baseline, size: size * 0.8, gray: 0.35) }
    }
}
