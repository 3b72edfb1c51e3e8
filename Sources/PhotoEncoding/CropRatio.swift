// CropRatio: aspect ratios for the photo crop, and the centered crop rectangle each gives.

/// A width:height ratio such as 4:3 or 1:1 (the booth's choices are `BoothCore.AspectRatio`'s; this module takes any).
public struct CropRatio: Sendable, Hashable, CustomStringConvertible {
    /// Relative width.
    public var width: Int
    /// Relative height.
    public var height: Int

    /// A ratio of `width`:`height`; both must be positive to be used.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    public var description: String { "\(width):\(height)" }

    /// The largest centered region of a `frameWidth` x `frameHeight` frame with this ratio.
    ///
    /// A cropped side is rounded to the nearest even length (within 1 px of the exact ratio)
    /// and its offset is even, so 4:2:0 chroma samples stay aligned. An uncropped side is
    /// kept whole, even when odd.
    public func centerCrop(frameWidth: Int, frameHeight: Int) -> CropRectangle {
        let full = CropRectangle(x: 0, y: 0, width: frameWidth, height: frameHeight)
        guard width > 0, height > 0, frameWidth > 1, frameHeight > 1 else { return full }
        if frameWidth * height > frameHeight * width {
            let length = Self.evenLength(exact: Double(frameHeight * width) / Double(height), limit: frameWidth)
            return CropRectangle(x: (frameWidth - length) / 2 & ~1, y: 0, width: length, height: frameHeight)
        }
        if frameWidth * height < frameHeight * width {
            let length = Self.evenLength(exact: Double(frameWidth * height) / Double(width), limit: frameHeight)
            return CropRectangle(x: 0, y: (frameHeight - length) / 2 & ~1, width: frameWidth, height: length)
        }
        return full
    }

    /// The even length nearest `exact` that does not exceed `limit` (and is at least 2).
    private static func evenLength(exact: Double, limit: Int) -> Int {
        let nearest = Int((exact / 2).rounded()) * 2
        return max(2, min(nearest, limit & ~1))
    }
}
