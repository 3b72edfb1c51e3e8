// PNGDensity: a PNG's print resolution (its pHYs chunk), which cairo does not write.
import Checksum

/// Sets a PNG's pixels per inch, so a print shop or a printer dialog sizes the card right (A6 at 300 dpi).
enum PNGDensity {
    /// `png` with a pHYs chunk of `dpi` right after its header chunk (IHDR), replacing none: cairo writes none.
    static func marked(_ png: [UInt8], dpi: Double) -> [UInt8] {
        // Signature (8) + IHDR (4 length, 4 type, 13 data, 4 CRC) = 33 bytes.
        guard png.count > 33, png[12..<16].elementsEqual("IHDR".utf8) else { return png }
        let perMetre = UInt32((dpi / 0.0254).rounded())
        var chunk = Array("pHYs".utf8)
        for _ in 0..<2 { chunk += bigEndian(perMetre) }
        chunk.append(1)  // The unit is the metre.
        let entry = bigEndian(UInt32(chunk.count - 4)) + chunk + bigEndian(CRC32.checksum(chunk))
        return Array(png[..<33]) + entry + Array(png[33...])
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) }
    }
}
