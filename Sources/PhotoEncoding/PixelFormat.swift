// PixelFormat: pixel layouts a camera frame can arrive in, and the plane geometry each implies.

/// The memory layout of a `PixelFrame`.
public enum PixelFormat: Sendable, Hashable, CustomStringConvertible {
    /// One plane of packed R, G, B bytes.
    case rgb24
    /// One plane of packed B, G, R bytes (libcamera calls this RGB888).
    case bgr24
    /// I420: three planes Y, U, V; U and V are ceil(width/2) x ceil(height/2).
    case yuv420
    /// Two planes: Y, then interleaved U,V pairs, ceil(width/2) pairs x ceil(height/2) rows.
    case nv12
    /// One plane of packed 4:2:2: Y0, U, Y1, V for each pair of pixels, ceil(width/2) pairs a row (a USB webcam's),
    /// limited range (luma 16–235, chroma 16–240).
    case yuyv
    /// One compressed JPEG per frame (a USB webcam's MJPEG): its one plane is the JPEG's bytes, its stride their
    /// count. The encoder decodes it first, so crops and EXIF work as for any frame.
    case mjpeg

    /// How many planes a frame of this format carries.
    public var planeCount: Int {
        switch self {
        case .rgb24, .bgr24, .yuyv, .mjpeg: 1
        case .yuv420: 3
        case .nv12: 2
        }
    }

    /// Payload bytes per row and row count of `plane` in a `width` x `height` frame.
    public func planeGeometry(_ plane: Int, width: Int, height: Int) -> (rowBytes: Int, rows: Int) {
        let chromaWidth = (width + 1) / 2
        let chromaHeight = (height + 1) / 2
        switch (self, plane) {
        case (.rgb24, _), (.bgr24, _): return (width * 3, height)
        case (.yuyv, _): return (chromaWidth * 4, height)
        case (.mjpeg, _): return (2, 1)  // no rows: at least a JPEG's start-of-image marker
        case (_, 0): return (width, height)
        case (.yuv420, _): return (chromaWidth, chromaHeight)
        case (.nv12, _): return (chromaWidth * 2, chromaHeight)
        }
    }

    public var description: String {
        switch self {
        case .rgb24: "RGB24"
        case .bgr24: "BGR24"
        case .yuv420: "YUV420"
        case .nv12: "NV12"
        case .yuyv: "YUYV"
        case .mjpeg: "MJPEG"
        }
    }
}
