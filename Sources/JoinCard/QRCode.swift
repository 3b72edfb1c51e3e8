// QRCode: a text as a QR symbol, made by libqrencode.
import BoothSystem
import CQREncode
import Glibc

/// A QR symbol of a text (8-bit mode, error correction M: a card still scans with a crease or a smudge), made by
/// libqrencode, wrapped here once. The quiet zone around it is the drawer's.
public struct QRCode: Sendable {
    /// Modules per side (21 for version 1, 4 more per version).
    public let size: Int
    /// Dark modules, row by row.
    private let dark: [Bool]

    /// The symbol of `text`; throws when libqrencode cannot make one (longer than a QR symbol holds).
    public init(_ text: String) throws(JoinCardError) {
        guard !text.isEmpty, text.utf8.count <= 1_000 else {
            throw JoinCardError("a QR code's text must be 1...1000 bytes (this one is \(text.utf8.count))")
        }
        guard let symbol = QRcode_encodeString8bit(text, 0, QR_ECLEVEL_M) else {
            throw JoinCardError(
                "libqrencode cannot encode \"\(text.prefix(40))…\": \(ErrnoText.describe(Errno.current.rawValue))")
        }
        defer { QRcode_free(symbol) }
        let width = Int(symbol.pointee.width)
        size = width
        dark = (0..<width * width).map { symbol.pointee.data[$0] & 1 == 1 }
    }

    /// Whether the module in `column`, `row` (from the top left, 0-based) is dark.
    public func isDark(column: Int, row: Int) -> Bool { dark[row * size + column] }
}
