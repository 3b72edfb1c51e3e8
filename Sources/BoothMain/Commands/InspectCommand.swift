// InspectCommand: `booth inspect FILE`.
import ArgumentParser
import BoothCore
import BoothRuntime
import BoothSystem
import PhotoEncoding

/// `booth inspect FILE`: a saved photo's size, components and EXIF as one JSON object,
/// read back with libjpeg and libexif (what the hardware rig checks).
struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Print a JPEG's size, components and EXIF as JSON (decodes the whole image)."
    )

    @Argument(help: "The JPEG file.")
    var file: String

    func run() throws {
        let bytes = try Self.contents(of: file)
        let info = try JPEGInspector.inspect(bytes)
        let pixels = try JPEGInspector.decode(bytes)
        var fields: [(String, String)] = [
            ("width", String(info.width)), ("height", String(info.height)),
            ("components", String(info.components)),
            ("decodedWidth", String(pixels.width)), ("decodedHeight", String(pixels.height)),
        ]
        if let exif = info.exif {
            fields += [
                ("dateTime", exif.dateTime.map(EventRecord.quoted) ?? "null"),
                ("cameraModel", EventRecord.quoted(exif.cameraModel)),
                ("make", EventRecord.quoted(exif.make)), ("orientation", String(exif.orientation)),
                ("exposureTimeMicroseconds", exif.exposureTime.map { String($0.inMicroseconds) } ?? "null"),
                ("analogueGain", exif.analogueGain.map { String($0) } ?? "null"),
            ]
        }
        print("{" + fields.map { "\(EventRecord.quoted($0.0)):\($0.1)" }.joined(separator: ",") + "}")
    }

    /// The whole file, or a ValidationError naming it.
    private static func contents(of path: String) throws -> [UInt8] {
        let bytes: [UInt8]?
        do {
            bytes = try FileReading.contents(of: path, limit: 256 << 20)
        } catch {
            throw ValidationError("\(path): \(error)")
        }
        guard let bytes else {
            throw ValidationError("\(path): \(ErrnoText.describe(Errno.noSuchFileOrDirectory.rawValue))")
        }
        return bytes
    }
}
