// JPEGOptions: how `JPEGEncoder` compresses a frame.

/// Quality, crop and metadata for one JPEG.
public struct JPEGOptions: Sendable, Equatable {
    /// libjpeg quality, 1...100.
    public var quality: Int
    /// Center-crop to this ratio before encoding; nil keeps the whole frame.
    public var crop: CropRatio?
    /// EXIF metadata to embed as an APP1 segment; nil writes a plain JFIF file.
    public var exif: ExifFields?

    /// Options with quality 90, no crop and no EXIF unless given.
    public init(quality: Int = 90, crop: CropRatio? = nil, exif: ExifFields? = nil) {
        self.quality = quality
        self.crop = crop
        self.exif = exif
    }
}
