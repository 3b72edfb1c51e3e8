// PageCanvas: a page in millimetres drawn by cairo (through the C shim), finished as PNG, PDF or RGB pixels.
import CPageCanvas
import Glibc

/// A page in millimetres, drawn by cairo (loaded only when a page is made: the join card, a print layout) and
/// finished into a file's bytes or its pixels. One thread at a time.
public final class PageCanvas {
    /// What the page's bytes are.
    public enum Kind: Sendable {
        /// A PNG image at `dpi`.
        case png(dpi: Double)
        /// A one-page PDF.
        case pdf
        /// Packed 8-bit RGB pixels at `dpi`, row after row.
        case rgb(dpi: Double)
    }

    /// Why a page could not be made or drawn (cairo missing, a size out of range, no memory).
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    private let canvas: OpaquePointer

    /// A white page `width` × `height` mm; `title` names a PDF.
    public init(_ kind: Kind, width: Double, height: Double, title: String) throws(Failure) {
        var message = [CChar](repeating: 0, count: Int(BOOTH_CANVAS_MESSAGE_MAX))
        let made: OpaquePointer? =
            switch kind {
            case .png(let dpi):
                booth_canvas_create(Int32(BOOTH_CANVAS_PNG.rawValue), width, height, dpi, title, &message)
            case .pdf: booth_canvas_create(Int32(BOOTH_CANVAS_PDF.rawValue), width, height, 0, title, &message)
            case .rgb(let dpi):
                booth_canvas_create(Int32(BOOTH_CANVAS_RGB.rawValue), width, height, dpi, title, &message)
            }
        guard let made else { throw Failure(description: Self.text(message)) }
        canvas = made
    }

    deinit { booth_canvas_destroy(canvas) }

    /// The page's size in pixels (a PNG or RGB page; 0 × 0 for a PDF).
    public var pixelSize: (width: Int, height: Int) {
        var width: Int32 = 0
        var height: Int32 = 0
        booth_canvas_pixel_size(canvas, &width, &height)
        return (Int(width), Int(height))
    }

    /// Fills a rectangle with `gray` (0 black … 1 white).
    public func fill(x: Double, y: Double, width: Double, height: Double, gray: Double = 0) {
        booth_canvas_fill_rect(canvas, x, y, width, height, gray)
    }

    /// The width `text` takes at `size` mm.
    public func width(of text: String, size: Double, bold: Bool = false) -> Double {
        booth_canvas_text_width(canvas, text, size, bold ? 1 : 0)
    }

    /// Draws `text` from `x` on the baseline `baseline`.
    public func text(_ text: String, x: Double, baseline: Double, size: Double, bold: Bool = false, gray: Double = 0) {
        booth_canvas_text(canvas, text, x, baseline, size, bold ? 1 : 0, gray)
    }

    /// Draws packed RGB pixels (`pixelWidth` × `pixelHeight`, rows `stride` bytes apart) scaled into the rectangle.
    public func image(
        _ rgb: [UInt8], pixelWidth: Int, pixelHeight: Int, stride: Int, x: Double, y: Double, width: Double,
        height: Double
    ) throws(Failure) {
        guard rgb.count >= stride * pixelHeight else {
            throw Failure(description: "an image of \(rgb.count) bytes is short of \(pixelHeight) rows of \(stride)")
        }
        var message = [CChar](repeating: 0, count: Int(BOOTH_CANVAS_MESSAGE_MAX))
        let drawn = rgb.withUnsafeBufferPointer {
            booth_canvas_image(
                canvas, $0.baseAddress, Int32(pixelWidth), Int32(pixelHeight), stride, x, y, width, height, &message)
        }
        guard drawn == 0 else { throw Failure(description: Self.text(message)) }
    }

    /// Draws a PNG file's bytes scaled into the rectangle, its transparency over what is drawn beneath. Cairo decodes
    /// it whole: the caller checks its size first.
    public func png(_ png: [UInt8], x: Double, y: Double, width: Double, height: Double) throws(Failure) {
        var message = [CChar](repeating: 0, count: Int(BOOTH_CANVAS_MESSAGE_MAX))
        let drawn = png.withUnsafeBufferPointer {
            booth_canvas_png(canvas, $0.baseAddress, $0.count, x, y, width, height, &message)
        }
        guard drawn == 0 else { throw Failure(description: Self.text(message)) }
    }

    /// Ends the page: the file's bytes (an RGB page: its pixels, `pixelSize`).
    public func finish() throws(Failure) -> [UInt8] {
        var message = [CChar](repeating: 0, count: Int(BOOTH_CANVAS_MESSAGE_MAX))
        var bytes: UnsafeMutablePointer<UInt8>?
        var length = 0
        guard booth_canvas_finish(canvas, &bytes, &length, &message) == 0, let bytes else {
            throw Failure(description: Self.text(message))
        }
        defer { free(bytes) }
        return Array(UnsafeBufferPointer(start: bytes, count: length))
    }

    private static func text(_ message: [CChar]) -> String {
        String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
