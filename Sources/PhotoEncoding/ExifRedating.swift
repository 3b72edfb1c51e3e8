// ExifRedating: a saved photo's EXIF given the date it was taken, every other byte of the file kept.

/// How a photo saved undated gets its date in a copy (a stick's, once a phone has set the clock): its EXIF segment
/// rebuilt with DateTime, DateTimeOriginal and DateTimeDigitized set, and everything else in the file, the image
/// data above all, byte for byte. The copy is `head` followed by the original from byte `replaced` on.
public struct ExifRedating: Hashable, Sendable {
    /// What the copy starts with: the original's start marker and segments before its EXIF segment, then the
    /// rebuilt EXIF segment.
    public var head: [UInt8]
    /// How many of the original's first bytes `head` stands for (through the end of its EXIF segment).
    public var replaced: Int

    /// How many of a file's first bytes `init` may need: the start marker and up to four 64 KiB segments before and
    /// including the EXIF one (the booth's photos have it first, right after the start marker).
    public static let prefixLimit = 2 + 4 * (65_535 + 2)

    /// The redating to `dateTime` (`YYYY:MM:DD HH:MM:SS`) of a JPEG that starts with `prefix` (its first
    /// `prefixLimit` bytes, or all of it when shorter); nil when it has no EXIF segment the booth wrote (with a
    /// camera model) before its image data, or when `prefix` ends before that segment does.
    public init?(prefix: [UInt8], dateTime: String) throws(PhotoEncodingError) {
        try ExifFields(dateTime: dateTime, cameraModel: "").validate()
        guard prefix.count >= 4, prefix[0] == 0xFF, prefix[1] == 0xD8 else { return nil }
        var offset = 2
        while offset + 4 <= prefix.count, prefix[offset] == 0xFF {
            let marker = prefix[offset + 1]
            // Only a segment with a length can come before the EXIF one: not the image data (SOS), nor the end.
            guard marker != 0xDA, marker != 0xD9, marker != 0x01, !(0xD0...0xD7).contains(marker) else { return nil }
            let end = offset + 2 + (Int(prefix[offset + 2]) << 8 | Int(prefix[offset + 3]))
            guard end >= offset + 4, end <= prefix.count else { return nil }
            let payload = Array(prefix[offset + 4..<end])
            if marker == 0xE1, payload.starts(with: Array("Exif\0\0".utf8)) {
                guard let redated = try ExifCodec.redated(payload: payload, dateTime: dateTime) else { return nil }
                let length = redated.count + 2
                head = Array(prefix[..<offset]) + [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + redated
                replaced = end
                return
            }
            offset = end
        }
        return nil
    }
}
