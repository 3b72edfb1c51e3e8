// CropRectangle: a pixel rectangle, the result of an aspect-ratio crop.

/// A rectangle of pixels within a frame.
public struct CropRectangle: Sendable, Hashable {
    /// Left edge in pixels.
    public var x: Int
    /// Top edge in pixels.
    public var y: Int
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int

    /// A rectangle at `x`,`y` of `width` x `height`.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}
