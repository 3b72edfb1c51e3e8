// PrintLogo: the event's logo for the print layouts' band (print.logo), a PNG checked before cairo decodes it.
import BoothSystem

/// The logo a print layout draws in its band (`print.logo`): a PNG file's bytes and its size in pixels. The file is
/// checked from its header (the PNG signature, then the IHDR chunk's size) before cairo ever decodes it whole, so a
/// file that is no PNG, or one too large for a band 9 mm high, is an error that names the file and the fix. Read at
/// the booth's start (a bad logo is a start error) and again for each page: a logo replaced since is printed as it is
/// now, and one that cannot be read any more is left out of the page (`LayoutRenderer.Page.logoProblem`).
public struct PrintLogo: Sendable {
    /// The PNG file's bytes.
    public let png: [UInt8]
    /// Its size in pixels, from its header.
    public let width, height: Int

    /// The largest logo file read.
    public static let maximumBytes = 4 << 20
    /// The most pixels a logo has on either side (a band 9 mm high at 300 dpi is 106 pixels).
    public static let maximumSide = 4000
    /// What to do about a logo too large.
    static let smaller = "save it smaller (it prints 9 mm high: 1000 pixels wide is plenty)"
    /// Folders the booth's service cannot see (ProtectHome=, PrivateTmp= in heylook-booth.service).
    static let hiddenFolders = ["/home/", "/root/", "/run/user/", "/tmp/", "/var/tmp/"]

    /// Its width over its height.
    public var aspect: Double { Double(width) / Double(height) }

    /// The logo in `png`, the bytes of the file at `path` (named in errors), checked.
    public init(png: [UInt8], path: String) throws(PrintError) {
        guard png.count <= Self.maximumBytes else {
            throw PrintError("print.logo: \(path) is larger than \(Self.maximumBytes >> 20) MiB: \(Self.smaller)")
        }
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard png.starts(with: signature) else {
            throw PrintError(
                "print.logo: \(path) is not a PNG file\(Self.kind(of: png)): save the logo as PNG (a transparent "
                    + "background prints best on the white page)")
        }
        // The first chunk is IHDR: 13 bytes, the width and the height first (big-endian).
        guard png.count >= 33, Array(png[8..<16]) == [0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52] else {
            throw PrintError("print.logo: \(path) is a damaged PNG (no image header): save the logo as PNG again")
        }
        func number(at offset: Int) -> Int { png[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) } }
        (width, height) = (number(at: 16), number(at: 20))
        guard width > 0, height > 0 else {
            throw PrintError("print.logo: \(path) is a damaged PNG (\(width) x \(height) pixels): save it as PNG again")
        }
        guard width <= Self.maximumSide, height <= Self.maximumSide else {
            throw PrintError(
                "print.logo: \(path) is \(width) x \(height) pixels, more than \(Self.maximumSide) x "
                    + "\(Self.maximumSide): \(Self.smaller)")
        }
        self.png = png
    }

    /// The logo in the file at `path`, read and checked.
    public static func read(_ path: String) throws(PrintError) -> PrintLogo {
        let hidden =
            hiddenFolders.contains { path.hasPrefix($0) }
            ? " (the booth's service cannot see /home, /root or /tmp: copy it to /etc/heylook/)" : ""
        let bytes: [UInt8]?
        do {
            bytes = try FileReading.contents(of: path, limit: maximumBytes)
        } catch .tooLarge {
            throw PrintError("print.logo: \(path) is larger than \(maximumBytes >> 20) MiB: \(smaller)")
        } catch {
            throw PrintError(
                "print.logo: \(path) cannot be read (\(error))\(hidden): make it readable by the booth's user "
                    + "(sudo chmod a+r \(path)), e.g. in /etc/heylook/")
        }
        guard let bytes else {
            throw PrintError(
                "print.logo: \(path) does not exist\(hidden): copy the logo (a PNG) there, e.g. to "
                    + "/etc/heylook/logo.png, or set print.logo = \"\" for none")
        }
        return try PrintLogo(png: bytes, path: path)
    }

    /// What a file that is no PNG looks like, from its first bytes: " (it is a JPEG)", or "".
    private static func kind(of bytes: [UInt8]) -> String {
        let text = String(decoding: bytes.prefix(256), as: UTF8.self).lowercased()
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return " (it is a JPEG)" }
        if bytes.starts(with: Array("GIF8".utf8)) { return " (it is a GIF)" }
        if bytes.starts(with: Array("RIFF".utf8)), bytes.count >= 12, Array(bytes[8..<12]) == Array("WEBP".utf8) {
            return " (it is a WebP)"
        }
        if text.contains("<svg") { return " (it is an SVG)" }
        return bytes.isEmpty ? " (it is empty)" : ""
    }
}
