// ExifFields: the EXIF metadata the booth writes into each photo.
import BoothTime

/// EXIF fields for one photo. Strings must be ASCII (EXIF's ASCII type).
public struct ExifFields: Sendable, Equatable {
    /// Capture time as "YYYY:MM:DD HH:MM:SS" (DateTime, DateTimeOriginal, DateTimeDigitized); nil
    /// writes none of them (the clock was not trusted: no date is better than a false one).
    public var dateTime: String?
    /// Camera model (Model), e.g. the sensor name "imx708".
    public var cameraModel: String
    /// Maker (Make).
    public var make: String
    /// EXIF orientation 1...8 (1 = upright).
    public var orientation: Int
    /// Exposure time (ExposureTime, written to the microsecond), if the camera reported it.
    public var exposureTime: Duration?
    /// Analogue gain, stored as ISOSpeedRatings = gain x 100 (as rpicam-apps does), so it
    /// reads back rounded to 0.01.
    public var analogueGain: Double?

    /// EXIF fields; `make` defaults to "HeyLook Booth" and `orientation` to upright.
    public init(
        dateTime: String?, cameraModel: String, make: String = "HeyLook Booth", orientation: Int = 1,
        exposureTime: Duration? = nil, analogueGain: Double? = nil
    ) {
        self.dateTime = dateTime
        self.cameraModel = cameraModel
        self.make = make
        self.orientation = orientation
        self.exposureTime = exposureTime
        self.analogueGain = analogueGain
    }

    /// Throws unless every field can be written to EXIF as given.
    public func validate() throws(PhotoEncodingError) {
        if let dateTime, !Self.isExifDateTime(dateTime) {
            throw .invalidExif("dateTime \"\(dateTime)\" must look like 2026:11:22 14:03:07")
        }
        for (name, value) in [("cameraModel", cameraModel), ("make", make)] {
            guard value.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }), value.utf8.count < 256 else {
                throw .invalidExif("\(name) \"\(value)\" must be printable ASCII under 256 bytes")
            }
        }
        guard (1...8).contains(orientation) else {
            throw .invalidExif("orientation \(orientation) is outside 1...8")
        }
        if let exposure = exposureTime?.inMicroseconds, exposure <= 0 || exposure > Int64(UInt32.max) {
            throw .invalidExif("exposure time \(exposure) us is not a positive 32-bit value")
        }
        if let gain = analogueGain, !(gain > 0 && gain * 100 <= Double(UInt16.max)) {
            throw .invalidExif("analogue gain \(gain) must be in (0, 655.35]")
        }
    }

    /// True for "YYYY:MM:DD HH:MM:SS" (digits and separators in place).
    private static func isExifDateTime(_ text: String) -> Bool {
        let pattern = Array("dddd:dd:dd dd:dd:dd".utf8)
        let bytes = Array(text.utf8)
        guard bytes.count == pattern.count else { return false }
        return zip(bytes, pattern).allSatisfy { byte, expected in
            expected == UInt8(ascii: "d") ? (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) : byte == expected
        }
    }
}
