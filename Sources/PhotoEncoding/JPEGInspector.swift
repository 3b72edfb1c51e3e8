// JPEGInspector: reads JPEGs back (header, EXIF, pixels) for tests and the hardware rig.

import CJPEGShim

/// Reads a JPEG's header and EXIF, or decodes it to RGB, with libjpeg and libexif.
public enum JPEGInspector {
    /// The JPEG's size, components and booth EXIF fields (from its first APP1 segment).
    public static func inspect(_ jpeg: [UInt8]) throws(PhotoEncodingError) -> JPEGInfo {
        var header = booth_jpeg_header()
        var message = [CChar](repeating: 0, count: Int(BOOTH_JPEG_MESSAGE_MAX))
        let status = jpeg.withUnsafeBufferPointer {
            booth_jpeg_read_header($0.baseAddress, $0.count, &header, &message)
        }
        guard status == 0 else { throw .decoderFailed(ShimMessage.text(message)) }
        defer { booth_jpeg_buffer_free(&header.app1) }
        var exif: ExifFields? = nil
        if let app1 = header.app1.data {
            exif = ExifCodec.fields(fromPayload: Array(UnsafeBufferPointer(start: app1, count: header.app1.length)))
        }
        return JPEGInfo(
            width: Int(header.width), height: Int(header.height), components: Int(header.components),
            exif: exif)
    }

    /// Decodes the whole JPEG to a packed RGB24 frame (stride = 3 x width).
    public static func decode(_ jpeg: [UInt8]) throws(PhotoEncodingError) -> PixelFrame {
        var rgb = booth_jpeg_buffer()
        var width: UInt32 = 0
        var height: UInt32 = 0
        var message = [CChar](repeating: 0, count: Int(BOOTH_JPEG_MESSAGE_MAX))
        let status = jpeg.withUnsafeBufferPointer {
            booth_jpeg_decode_rgb($0.baseAddress, $0.count, &rgb, &width, &height, &message)
        }
        guard status == 0, let data = rgb.data else { throw .decoderFailed(ShimMessage.text(message)) }
        defer { booth_jpeg_buffer_free(&rgb) }
        let bytes = Array(UnsafeBufferPointer(start: data, count: rgb.length))
        return PixelFrame(
            width: Int(width), height: Int(height), format: .rgb24,
            planes: [PixelPlane(bytes: bytes, stride: Int(width) * 3)])
    }
}
