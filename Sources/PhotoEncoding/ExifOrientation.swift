// ExifOrientation: the eight EXIF orientations and the pixel moves that turn a picture upright.

/// EXIF Orientation (tag 0x0112): how the stored pixels must be turned to be seen upright.
///
/// The raw value is the tag's value. Names say what is done to the stored picture to show it:
/// orientations 2, 4, 5 and 7 mirror, 3, 6 and 8 rotate, 5 to 8 swap width and height.
public enum ExifOrientation: Int, Sendable, CaseIterable {
    /// 1: already upright.
    case upright = 1
    /// 2: mirror left to right.
    case mirrored = 2
    /// 3: rotate 180°.
    case rotated180 = 3
    /// 4: mirror top to bottom.
    case mirroredVertically = 4
    /// 5: mirror across the top-left to bottom-right diagonal (transpose).
    case transposed = 5
    /// 6: rotate 90° clockwise.
    case rotated90Clockwise = 6
    /// 7: mirror across the top-right to bottom-left diagonal (transverse).
    case transversed = 7
    /// 8: rotate 90° counter-clockwise.
    case rotated90CounterClockwise = 8

    /// The orientation for an EXIF value; values outside 1...8 (a damaged tag) count as upright.
    public init(exifValue: Int) {
        self = ExifOrientation(rawValue: exifValue) ?? .upright
    }

    /// True when turning upright swaps width and height.
    public var swapsSides: Bool { rawValue >= 5 }

    /// `frame` (packed RGB24) turned upright.
    public func applied(to frame: PixelFrame) -> PixelFrame {
        guard self != .upright else { return frame }
        let (width, height) = (frame.width, frame.height)
        let (outWidth, outHeight) = swapsSides ? (height, width) : (width, height)
        let source = frame.planes[0]
        var bytes = [UInt8](repeating: 0, count: outWidth * outHeight * 3)
        bytes.withUnsafeMutableBufferPointer { out in
            source.bytes.withUnsafeBufferPointer { input in
                for y in 0..<outHeight {
                    for x in 0..<outWidth {
                        let (sourceX, sourceY) = sourcePoint(x: x, y: y, width: width, height: height)
                        let from = sourceY * source.stride + sourceX * 3
                        let to = (y * outWidth + x) * 3
                        out[to] = input[from]
                        out[to + 1] = input[from + 1]
                        out[to + 2] = input[from + 2]
                    }
                }
            }
        }
        return PixelFrame(
            width: outWidth, height: outHeight, format: .rgb24,
            planes: [PixelPlane(bytes: bytes, stride: outWidth * 3)])
    }

    /// The stored pixel shown at upright `x`,`y`, for a stored picture of `width` x `height`.
    func sourcePoint(x: Int, y: Int, width: Int, height: Int) -> (x: Int, y: Int) {
        switch self {
        case .upright: (x, y)
        case .mirrored: (width - 1 - x, y)
        case .rotated180: (width - 1 - x, height - 1 - y)
        case .mirroredVertically: (x, height - 1 - y)
        case .transposed: (y, x)
        case .rotated90Clockwise: (y, height - 1 - x)
        case .transversed: (width - 1 - y, height - 1 - x)
        case .rotated90CounterClockwise: (width - 1 - y, x)
        }
    }
}
