// JoinCard: the printable A6 card that takes a guest's phone to the booth's photos.
import GalleryCore
import PageCanvas

/// The card a host prints and puts beside the booth: a QR code that joins the booth's Wi-Fi (when there is one), a
/// QR code that opens the gallery already signed in with the event's code, and the same in words for a phone whose
/// camera reads no QR codes. Drawn as a PNG at 300 dpi and as a PDF, both A6 portrait.
public struct JoinCard: Sendable {
    /// The Wi-Fi to join first, or nil when the guests' phones are already on the booth's network.
    public let network: WiFiNetwork?
    /// Where the gallery answers, e.g. `http://booth.local/`.
    public let galleryAddress: String
    /// The event's access code.
    public let code: String

    /// A6 in millimetres.
    public static let width = 105.0
    /// A6 in millimetres.
    public static let height = 148.0
    /// The PNG's resolution.
    public static let dpi = 300.0

    /// A card for `network` (optional), the gallery at `galleryAddress` and its `code`.
    public init(network: WiFiNetwork?, galleryAddress: String, code: String) throws(JoinCardError) {
        guard galleryAddress.hasPrefix("http://") || galleryAddress.hasPrefix("https://"),
            galleryAddress.count > 8, !galleryAddress.contains(where: { $0 == " " || $0 == "?" || $0 == "#" })
        else {
            throw JoinCardError(
                "'\(galleryAddress)' is not a gallery address; give one like http://booth.local/ (no spaces, no ?)")
        }
        guard !code.isEmpty else { throw JoinCardError("the card needs the gallery's access code") }
        self.network = network
        self.galleryAddress = galleryAddress.hasSuffix("/") ? galleryAddress : galleryAddress + "/"
        self.code = code
    }

    /// The link the gallery's QR code opens: the gallery with the code, so the guest need not type it.
    public var galleryLink: String { "\(galleryAddress)?code=\(Self.percentEncoded(code))" }

    /// The card as a PNG image (A6 at 300 dpi, its resolution recorded in the file).
    public func png() throws(JoinCardError) -> [UInt8] {
        let canvas = try Self.canvas(.png(dpi: Self.dpi))
        try draw(on: canvas)
        return PNGDensity.marked(try Self.finish(canvas), dpi: Self.dpi)
    }

    /// The card's pixels (A6 at 300 dpi, packed 8-bit RGB), for a printer.
    public func pixels() throws(JoinCardError) -> (rgb: [UInt8], width: Int, height: Int) {
        let canvas = try Self.canvas(.rgb(dpi: Self.dpi))
        try draw(on: canvas)
        let size = canvas.pixelSize
        return (try Self.finish(canvas), size.width, size.height)
    }

    /// The card as a one-page PDF (A6).
    public func pdf() throws(JoinCardError) -> [UInt8] {
        let canvas = try Self.canvas(.pdf)
        try draw(on: canvas)
        return try Self.finish(canvas)
    }

    /// A blank card of `kind`.
    private static func canvas(_ kind: PageCanvas.Kind) throws(JoinCardError) -> PageCanvas {
        do {
            return try PageCanvas(kind, width: width, height: height, title: title)
        } catch {
            throw JoinCardError(error.description)
        }
    }

    /// The card's bytes.
    private static func finish(_ canvas: PageCanvas) throws(JoinCardError) -> [UInt8] {
        do {
            return try canvas.finish()
        } catch {
            throw JoinCardError(error.description)
        }
    }

    // MARK: Layout (millimetres from the top left)

    static let title = "Photos from the booth"
    private static let margin = 8.0
    private static let body = 3.4
    private static let small = 2.7

    private func draw(on canvas: PageCanvas) throws(JoinCardError) {
        let left = Self.margin
        let width = Self.width - 2 * Self.margin
        let center = Self.width / 2
        canvas.text(
            Self.title, x: center - canvas.width(of: Self.title, size: 6.4, bold: true) / 2, baseline: 17,
            size: 6.4, bold: true)
        let hint = network == nil ? "Point your phone's camera at the code" : "Point your phone's camera at the codes"
        canvas.text(
            hint, x: center - canvas.width(of: hint, size: Self.body) / 2, baseline: 23.5, size: Self.body,
            gray: 0.3)

        // The QR codes: two side by side, or the gallery's alone and larger.
        let top = 29.0
        var symbols: [(QRCode, String)] = []
        if let network { symbols.append((try QRCode(network.joinText), "1  Join the Wi-Fi")) }
        symbols.append((try QRCode(galleryLink), network == nil ? "Open the photos" : "2  Open the photos"))
        let box = symbols.count == 2 ? 42.0 : 56.0
        let gap = width - 2 * box
        for (index, (symbol, label)) in symbols.enumerated() {
            let x = symbols.count == 2 ? left + Double(index) * (box + gap) : center - box / 2
            drawQR(symbol, x: x, y: top, box: box, on: canvas)
            let labelWidth = canvas.width(of: label, size: 3.8, bold: true)
            canvas.text(label, x: x + box / 2 - labelWidth / 2, baseline: top + box + 3, size: 3.8, bold: true)
        }

        // The same in words.
        var baseline = top + box + 14
        var lines: [(String, Bool)] = []
        if let network {
            lines += [("1  Wi-Fi: \(network.name)", true), ("Password: \(network.passphrase)", false)]
            lines += [("2  Open \(galleryAddress)", true), ("Code: \(code)", false)]
        } else {
            lines += [("Open \(galleryAddress)", true), ("Code: \(code)", false)]
        }
        for (line, strong) in lines {
            // Names, passphrases and addresses break anywhere: a break at a space would hide the space.
            for part in wrapped(line, size: Self.body, bold: strong, width: width, atSpaces: false, on: canvas) {
                canvas.text(part, x: left, baseline: baseline, size: Self.body, bold: strong)
                baseline += 5
            }
            if !strong { baseline += 2 }
        }

        let footer =
            "Every photo taken today is there: open one to save it on your phone, or download a day or all of "
            + "them as one ZIP. The photos stay on the booth; nothing is sent to the internet."
        baseline = max(baseline + 2, Self.height - Self.margin - 3 * 3.8)
        for part in wrapped(footer, size: Self.small, bold: false, width: width, atSpaces: true, on: canvas) {
            canvas.text(part, x: left, baseline: baseline, size: Self.small, gray: 0.3)
            baseline += 3.8
        }
    }

    /// Draws `symbol` with its quiet zone centred in a `box` mm square at `x`, `y`, each module a whole number of the
    /// PNG's pixels (a sharp print).
    private func drawQR(_ symbol: QRCode, x: Double, y: Double, box: Double, on canvas: PageCanvas) {
        let pixel = 25.4 / Self.dpi
        let modules = symbol.size + 8
        let module = max(1, (box / pixel / Double(modules)).rounded(.down)) * pixel
        let side = module * Double(modules)
        let originX = ((x + (box - side) / 2) / pixel).rounded() * pixel + 4 * module
        let originY = ((y + (box - side) / 2) / pixel).rounded() * pixel + 4 * module
        for row in 0..<symbol.size {
            // One rectangle per run of dark modules: no seams between neighbours in a PDF viewer.
            var column = 0
            while column < symbol.size {
                guard symbol.isDark(column: column, row: row) else {
                    column += 1
                    continue
                }
                let start = column
                while column < symbol.size && symbol.isDark(column: column, row: row) { column += 1 }
                canvas.fill(
                    x: originX + Double(start) * module, y: originY + Double(row) * module,
                    width: Double(column - start) * module, height: module)
            }
        }
    }

    /// `text` in lines no wider than `width`: broken at spaces (`atSpaces`; inside a word only when the word alone is
    /// wider), or after the last character that fits.
    private func wrapped(
        _ text: String, size: Double, bold: Bool, width: Double, atSpaces: Bool, on canvas: PageCanvas
    ) -> [String] {
        var lines: [String] = []
        var line = ""
        let words = atSpaces ? text.split(separator: " ", omittingEmptySubsequences: false).map(String.init) : [text]
        for word in words {
            let candidate = line.isEmpty ? word : line + " " + word
            if canvas.width(of: candidate, size: size, bold: bold) <= width {
                line = candidate
                continue
            }
            if !line.isEmpty { lines.append(line) }
            line = ""
            for character in word {
                if !line.isEmpty && canvas.width(of: line + String(character), size: size, bold: bold) > width {
                    lines.append(line)
                    line = ""
                }
                line.append(character)
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    /// `text` with every byte but A-Z, a-z, 0-9 and `-._~` percent-encoded.
    private static func percentEncoded(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            let scalar = Unicode.Scalar(byte)
            if ("0"..."9").contains(scalar) || ("A"..."Z").contains(scalar) || ("a"..."z").contains(scalar)
                || "-._~".unicodeScalars.contains(scalar)
            {
                out.unicodeScalars.append(scalar)
            } else {
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return out
    }
}

extension String {
    fileprivate func leftPadded(to length: Int) -> String {
        String(repeating: "0", count: max(0, length - count)) + self
    }
}
