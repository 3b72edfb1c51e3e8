// JPEGThumbnail: a small upright JPEG of a photo, from libjpeg-turbo's scaled decode.

import CJPEGShim

/// A thumbnail made from a JPEG without decoding it at full size.
///
/// `make` reads the header and EXIF orientation, decodes at the 1/N scale a `ThumbnailPlan` picks
/// (DCT-domain scaling: at 1/8 a 12 MP photo decodes straight to 507x380), shrinks that with an area
/// filter to the planned size, turns it upright and encodes it with `JPEGEncoder` as plain JFIF (no
/// EXIF, so no orientation tag is left to apply twice). Damaged or non-JPEG input is a
/// `PhotoEncodingError`, never a trap. Safe to call from any thread.
public struct JPEGThumbnail: Sendable, Equatable, CustomStringConvertible {
    /// The thumbnail's JPEG bytes (baseline JFIF, 4:2:0, no EXIF).
    public var jpeg: [UInt8]
    /// Upright width in pixels.
    public var width: Int
    /// Upright height in pixels.
    public var height: Int
    /// N of the 1/N scale the source was decoded at.
    public var scaleDenominator: Int
    /// Width libjpeg decoded to, as it reported it.
    public var decodedWidth: Int
    /// Height libjpeg decoded to, as it reported it.
    public var decodedHeight: Int
    /// The source's EXIF orientation (1...8) that was applied; 1 when it had none.
    public var orientation: Int

    /// The sizes and scale, without the bytes.
    public var description: String {
        "\(width)x\(height) thumbnail, \(jpeg.count) bytes, from a 1/\(scaleDenominator) decode to "
            + "\(decodedWidth)x\(decodedHeight) with orientation \(orientation)"
    }

    /// The gallery's thumbnails' long edge in pixels: a phone's three columns (about 125 points wide) at 2.5x, and
    /// 24 thumbnails of a photo within the first page's 300 KB (about 11 KB each at `defaultQuality`).
    public static let defaultLongEdge = 320
    /// The gallery's thumbnails' JPEG quality.
    public static let defaultQuality = 75

    /// An upright thumbnail of `jpeg` whose long edge is `longEdge` pixels (or the photo's own long
    /// edge if that is shorter), encoded at `quality` (1...100).
    public static func make(
        from jpeg: [UInt8], longEdge: Int = defaultLongEdge, quality: Int = defaultQuality
    ) throws(PhotoEncodingError) -> JPEGThumbnail {
        guard (1...65500).contains(longEdge) else { throw .invalidDimensions(width: longEdge, height: longEdge) }
        guard (1...100).contains(quality) else { throw .invalidQuality(quality) }
        let info = try JPEGInspector.inspect(jpeg)
        let plan = ThumbnailPlan(sourceWidth: info.width, sourceHeight: info.height, longEdge: longEdge)
        let decoded = try decode(jpeg, scaleDenominator: plan.scaleDenominator)
        let sized = AreaResampler.resized(
            decoded, width: min(plan.width, decoded.width), height: min(plan.height, decoded.height))
        let orientation = ExifOrientation(exifValue: info.exif?.orientation ?? 1)
        let upright = orientation.applied(to: sized)
        return JPEGThumbnail(
            jpeg: try JPEGEncoder.encode(upright, options: JPEGOptions(quality: quality)),
            width: upright.width, height: upright.height, scaleDenominator: plan.scaleDenominator,
            decodedWidth: decoded.width, decodedHeight: decoded.height, orientation: orientation.rawValue)
    }

    /// Decodes `jpeg` to a packed RGB24 frame at 1/`scaleDenominator` (1, 2, 4 or 8) of its size, in
    /// the DCT domain; the frame's size is what libjpeg reported. Unlike `JPEGInspector.decode`, damaged
    /// data (a truncated file, corrupt entropy data) is an error rather than a picture with grey blocks.
    public static func decode(_ jpeg: [UInt8], scaleDenominator: Int) throws(PhotoEncodingError) -> PixelFrame {
        guard ThumbnailPlan.scaleDenominators.contains(scaleDenominator) else {
            throw .decoderFailed("scale 1/\(scaleDenominator) is not one of 1/1, 1/2, 1/4, 1/8")
        }
        var rgb = booth_jpeg_buffer()
        var width: UInt32 = 0
        var height: UInt32 = 0
        var message = [CChar](repeating: 0, count: Int(BOOTH_JPEG_MESSAGE_MAX))
        let status = jpeg.withUnsafeBufferPointer {
            booth_jpeg_decode_scaled(
                $0.baseAddress, $0.count, UInt32(scaleDenominator), &rgb, &width, &height, &message)
        }
        guard status == 0, let data = rgb.data else { throw .decoderFailed(ShimMessage.text(message)) }
        defer { booth_jpeg_buffer_free(&rgb) }
        return PixelFrame(
            width: Int(width), height: Int(height), format: .rgb24,
            planes: [
                PixelPlane(bytes: Array(UnsafeBufferPointer(start: data, count: rgb.length)), stride: Int(width) * 3)
            ])
    }
}
