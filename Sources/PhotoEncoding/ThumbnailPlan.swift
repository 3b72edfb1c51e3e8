// ThumbnailPlan: the libjpeg scale and the final size that make a thumbnail with the least decoding.

/// How a `sourceWidth` x `sourceHeight` JPEG becomes a thumbnail whose long edge is at most `longEdge`.
///
/// libjpeg decodes at 1/8, 1/4, 1/2 or 1/1 in the DCT domain, to ceil(side / N) pixels. The plan
/// takes the largest N whose decoded long edge still reaches `longEdge`, so the thumbnail is never
/// upscaled and no more is decoded than it needs; an area filter then brings the decoded image down
/// to the final size. A source shorter than `longEdge` keeps its own size. Sizes are as stored, before
/// the EXIF orientation turns the picture upright (which swaps them for orientations 5 to 8).
public struct ThumbnailPlan: Sendable, Equatable {
    /// The scales libjpeg-turbo decodes at (1/N), largest N first.
    public static let scaleDenominators = [8, 4, 2, 1]

    /// The source JPEG's width in pixels.
    public var sourceWidth: Int
    /// The source JPEG's height in pixels.
    public var sourceHeight: Int
    /// N of the 1/N scaled decode: 8, 4, 2 or 1.
    public var scaleDenominator: Int
    /// Width libjpeg decodes to: ceil(sourceWidth / N).
    public var decodedWidth: Int
    /// Height libjpeg decodes to: ceil(sourceHeight / N).
    public var decodedHeight: Int
    /// The thumbnail's width before orientation: at most `decodedWidth`.
    public var width: Int
    /// The thumbnail's height before orientation: at most `decodedHeight`.
    public var height: Int

    /// The plan for a source of this size; sides and `longEdge` below 1 count as 1.
    public init(sourceWidth: Int, sourceHeight: Int, longEdge: Int) {
        let sourceWidth = max(1, sourceWidth)
        let sourceHeight = max(1, sourceHeight)
        let sourceLong = max(sourceWidth, sourceHeight)
        let target = min(max(1, longEdge), sourceLong)
        let denominator = Self.scaleDenominators.first { Self.scaled(sourceLong, by: $0) >= target } ?? 1
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
        scaleDenominator = denominator
        decodedWidth = Self.scaled(sourceWidth, by: denominator)
        decodedHeight = Self.scaled(sourceHeight, by: denominator)
        // The aspect comes from the source (the decoded sides are rounded up); never above the decoded size.
        width = min(decodedWidth, max(1, (sourceWidth * target + sourceLong / 2) / sourceLong))
        height = min(decodedHeight, max(1, (sourceHeight * target + sourceLong / 2) / sourceLong))
    }

    /// libjpeg's scaled side: ceil(side / denominator) (its `jdiv_round_up`).
    private static func scaled(_ side: Int, by denominator: Int) -> Int {
        (side + denominator - 1) / denominator
    }
}
