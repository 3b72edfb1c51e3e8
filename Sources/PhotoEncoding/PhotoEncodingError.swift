// PhotoEncodingError: why a frame could not be encoded or a JPEG could not be read.

/// A failure in `JPEGEncoder` or `JPEGInspector`; each message says what to change.
public enum PhotoEncodingError: Error, Equatable, CustomStringConvertible {
    /// The frame is empty or larger than JPEG allows (65500 px per side).
    case invalidDimensions(width: Int, height: Int)
    /// The frame has the wrong number of planes for its format.
    case wrongPlaneCount(format: PixelFormat, expected: Int, actual: Int)
    /// A plane's stride is shorter than one row of pixels.
    case strideTooSmall(plane: Int, stride: Int, minimum: Int)
    /// A plane holds fewer bytes than its stride and row count require.
    case planeTooSmall(plane: Int, byteCount: Int, required: Int)
    /// JPEG quality outside 1...100.
    case invalidQuality(Int)
    /// An aspect ratio with a side that is not positive.
    case invalidAspectRatio(CropRatio)
    /// An EXIF field that cannot be written as given.
    case invalidExif(String)
    /// libjpeg reported an error while compressing.
    case encoderFailed(String)
    /// The data is not a JPEG libjpeg can read.
    case decoderFailed(String)

    public var description: String {
        switch self {
        case .invalidDimensions(let width, let height):
            "frame size \(width)x\(height) is not encodable: each side must be 1...65500 pixels"
        case .wrongPlaneCount(let format, let expected, let actual):
            "a \(format) frame needs \(expected) plane(s) but \(actual) were given"
        case .strideTooSmall(let plane, let stride, let minimum):
            "plane \(plane) has stride \(stride), shorter than one row (\(minimum) bytes)"
        case .planeTooSmall(let plane, let byteCount, let required):
            "plane \(plane) holds \(byteCount) bytes but its stride and height need \(required)"
        case .invalidQuality(let quality):
            "JPEG quality \(quality) is outside 1...100"
        case .invalidAspectRatio(let ratio):
            "aspect ratio \(ratio) needs two positive sides"
        case .invalidExif(let reason):
            "EXIF: \(reason)"
        case .encoderFailed(let reason):
            "libjpeg could not compress the frame: \(reason)"
        case .decoderFailed(let reason):
            "not a readable JPEG: \(reason)"
        }
    }
}
