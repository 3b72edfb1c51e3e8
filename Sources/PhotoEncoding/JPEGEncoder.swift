// JPEGEncoder: compresses frames to JPEG with libjpeg-turbo; the only Swift file that calls the JPEG shim's encoder.

import CJPEGShim

/// Turns a `PixelFrame` (or borrowed camera memory) into JPEG bytes.
///
/// YUV frames go to libjpeg as raw 4:2:0 planes (`jpeg_write_raw_data`), read in place through
/// their strides; only rows that need edge padding for odd sizes are copied. Packed YUYV goes as raw 4:2:2, each
/// row split into its planes on the way and stretched from limited range (a webcam's, as V4L2 and UVC define it) to
/// the full range a JPEG is read in. RGB24/BGR24 frames go
/// through `jpeg_write_scanlines`. An MJPEG frame is decoded to RGB24 first (damaged data is an error, not a
/// photo with grey blocks), then encoded as one. Safe to call from any thread.
public enum JPEGEncoder {
    /// Encodes an owned frame. See `encode(_:options:)` for borrowed memory.
    public static func encode(
        _ frame: PixelFrame, options: JPEGOptions = JPEGOptions()
    ) throws(PhotoEncodingError)
        -> [UInt8]
    {
        try frame.withBorrowedFrame { (borrowed) throws(PhotoEncodingError) in
            try encode(borrowed, options: options)
        }
    }

    /// Encodes a frame in borrowed memory (for example a camera's mmap'd buffer) without copying it.
    public static func encode(
        _ frame: BorrowedPixelFrame, options: JPEGOptions = JPEGOptions()
    )
        throws(PhotoEncodingError) -> [UInt8]
    {
        try frame.validate()
        guard (1...100).contains(options.quality) else { throw .invalidQuality(options.quality) }
        if frame.format == .mjpeg { return try encode(decodedMJPEG(frame), options: options) }
        var crop = CropRectangle(x: 0, y: 0, width: frame.width, height: frame.height)
        if let ratio = options.crop {
            guard ratio.width > 0, ratio.height > 0 else { throw .invalidAspectRatio(ratio) }
            crop = ratio.centerCrop(frameWidth: frame.width, frameHeight: frame.height)
        }
        let app1 =
            try options.exif.map { (fields) throws(PhotoEncodingError) in
                try ExifCodec.payload(for: fields, width: crop.width, height: crop.height)
            } ?? []

        var source = booth_jpeg_source()
        source.layout = frame.format.shimLayout
        source.width = UInt32(frame.width)
        source.height = UInt32(frame.height)
        source.crop_x = UInt32(crop.x)
        source.crop_y = UInt32(crop.y)
        source.crop_width = UInt32(crop.width)
        source.crop_height = UInt32(crop.height)
        source.quality = Int32(options.quality)
        let planes =
            frame.planes.map {
                booth_jpeg_plane(
                    data: $0.bytes.baseAddress?.assumingMemoryBound(to: UInt8.self),
                    length: $0.bytes.count, stride: $0.stride)
            } + Array(repeating: booth_jpeg_plane(), count: 3 - frame.planes.count)
        source.planes = (planes[0], planes[1], planes[2])

        var output = booth_jpeg_buffer()
        var message = [CChar](repeating: 0, count: Int(BOOTH_JPEG_MESSAGE_MAX))
        let status = app1.withUnsafeBufferPointer { app1Bytes in
            source.app1 = app1Bytes.baseAddress
            source.app1_length = app1Bytes.count
            return booth_jpeg_encode(&source, &output, &message)
        }
        guard status == 0, let data = output.data else { throw .encoderFailed(ShimMessage.text(message)) }
        defer { booth_jpeg_buffer_free(&output) }
        return Array(UnsafeBufferPointer(start: data, count: output.length))
    }

    /// An MJPEG frame's pixels, checked to be the size the camera streams.
    private static func decodedMJPEG(_ frame: BorrowedPixelFrame) throws(PhotoEncodingError) -> PixelFrame {
        let decoded = try JPEGThumbnail.decode(Array(frame.planes[0].bytes), scaleDenominator: 1)
        guard decoded.width == frame.width, decoded.height == frame.height else {
            throw .decoderFailed(
                "the camera's MJPEG frame is \(decoded.width)x\(decoded.height), not the "
                    + "\(frame.width)x\(frame.height) it streams; set camera.width and camera.height to a size it offers"
            )
        }
        return decoded
    }
}

extension PixelFormat {
    /// The shim's name for this layout.
    fileprivate var shimLayout: Int32 {
        switch self {
        case .rgb24: Int32(BOOTH_JPEG_LAYOUT_RGB24.rawValue)
        case .bgr24: Int32(BOOTH_JPEG_LAYOUT_BGR24.rawValue)
        case .yuv420: Int32(BOOTH_JPEG_LAYOUT_I420.rawValue)
        case .nv12: Int32(BOOTH_JPEG_LAYOUT_NV12.rawValue)
        case .yuyv: Int32(BOOTH_JPEG_LAYOUT_YUYV.rawValue)
        case .mjpeg: Int32(BOOTH_JPEG_LAYOUT_RGB24.rawValue)  // never reached: decoded to RGB24 first
        }
    }
}
