// CardCanvas: a page the join card is drawn on, as PNG or PDF bytes (cairo, through the C shim).
import CCardCanvas
import Glibc

/// A page in millimetres, drawn by cairo (loaded only when a card is made) and finished into a file's bytes.
final class CardCanvas {
    /// What the page's bytes are.
    enum Kind {
        /// A PNG image at `dpi`.
        case png(dpi: Double)
        /// A one-page PDF.
        case pdf
    }

    private let canvas: OpaquePointer

    /// A white page `width` × `height` mm; `title` names a PDF.
    init(_ kind: Kind, width: Double, height: Double, title: String) throws(JoinCardError) {
        var message = [CChar](repeating: 0, count: Int(BOOTH_CANVAS_MESSAGE_MAX))
        let made: OpaquePointer? =
            switch kind {
            case .png(let dpi):
                booth_canvas_create(Int32(BOOTH_CANVAS_PNG.rawValue), width, height, dpi, title, &message)
            case .pdf: booth_canvas_create(Int32(BOOTH_CANVAS_PDF.rawValue), width, height, 0, title, &message)
            }
        guard let made else { throw JoinCardError(Self.text(message)) }
        canvas = made
    }

    deinit { booth_canvas_destroy(canvas) }

    /// Fills a rectangle with `gray` (0 black … 1 white).
    func fill(x: Double, y: Double, width: Double, height: Double, gray: Double = 0) {
        booth_canvas_fill_rect(canvas, x, y, width, height, gray)
    }

    /// The width `text` takes at `size` mm.
    func width(of text: String, size: Double, bold: Bool = false) -> Double {
        booth_canvas_text_width(canvas, text, size, bold ? 1 : 0)
    }

    /// Draws `text` from `x` on the baseline `baseline`.
    func text(_ text: String, x: Double, baseline: Double, size: Double, bold: Bool = false, gray: Double = 0) {
        booth_canvas_text(canvas, text, x, baseline, size, bold ? 1 : 0, gray)
    }

    /// Ends the page: the file's bytes.
    func finish() throws(JoinCardError) -> [UInt8] {
        var message = [CChar](repeating: 0, count: Int(BOOTH_CANVAS_MESSAGE_MAX))
        var bytes: UnsafeMutablePointer<UInt8>?
        var length = 0
        guard booth_canvas_finish(canvas, &bytes, &length, &message) == 0, let bytes else {
            throw JoinCardError(Self.text(message))
        }
        defer { free(bytes) }
        return Array(UnsafeBufferPointer(start: bytes, count: length))
    }

    private static func text(_ message: [CChar]) -> String {
        String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
