// JPEGInfo: what `JPEGInspector` reads from a JPEG's header.

/// A JPEG's size, component count and the booth's EXIF fields if present.
public struct JPEGInfo: Sendable, Equatable {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// Color components (3 for the booth's photos).
    public var components: Int
    /// EXIF fields read back with libexif, or nil when there is no EXIF APP1 segment.
    public var exif: ExifFields?

    /// Header facts as read.
    public init(width: Int, height: Int, components: Int, exif: ExifFields?) {
        self.width = width
        self.height = height
        self.components = components
        self.exif = exif
    }
}
