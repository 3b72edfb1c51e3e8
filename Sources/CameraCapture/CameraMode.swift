// CameraMode: one still-capture mode a camera offers.

/// A pixel format and size the camera can stream for still capture.
public struct CameraMode: Sendable, Hashable, CustomStringConvertible {
    /// libcamera's format name, e.g. "YUV420" or "BGR888".
    public var pixelFormat: String
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int

    /// A mode as libcamera reports it.
    public init(pixelFormat: String, width: Int, height: Int) {
        self.pixelFormat = pixelFormat
        self.width = width
        self.height = height
    }

    public var description: String { "\(width)x\(height) \(pixelFormat)" }
}
