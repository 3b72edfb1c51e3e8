// JoinCardTests: the card's PNG and PDF, and its QR codes read back by an independent reader (zbar's zbarimg).
import GalleryCore
import Glibc
import Testing

@testable import JoinCard

@Suite struct JoinCardTests {
    @Test func theQRCodesReadBackAsTheNetworkAndTheSignedInGalleryLink() throws {
        let network = try WiFiNetwork(name: "HeyLook-7Q2M", passphrase: "duck-apple-rain")
        let card = try JoinCard(network: network, galleryAddress: "http://booth.local/", code: "K7PQ2M")
        let read = try zbarimg(card.png())
        #expect(
            read.sorted()
                == ["WIFI:T:WPA;S:HeyLook-7Q2M;P:duck-apple-rain;;", "http://booth.local/?code=K7PQ2M"].sorted())
    }

    /// A name and passphrase with every character the WIFI format escapes, at their longest: the reader gets back
    /// exactly what a phone needs to join.
    @Test func aNetworkWithReservedCharactersRoundTrips() throws {
        let name = #"Party;Wi,Fi:\"A"\#(String(repeating: "n", count: 16))"#
        let passphrase = #"p;a,s:s\w"o rd"# + String(repeating: "~", count: 48)
        let card = try JoinCard(
            network: try WiFiNetwork(name: name, passphrase: passphrase), galleryAddress: "http://10.42.0.1",
            code: "AB-12")
        let read = try zbarimg(card.png())
        let wifi = try #require(read.first { $0.hasPrefix("WIFI:") })
        #expect(Self.field("S", of: wifi) == name)
        #expect(Self.field("P", of: wifi) == passphrase)
        #expect(read.contains("http://10.42.0.1/?code=AB-12"))
    }

    @Test func withoutANetworkTheCardHoldsOnlyTheGallery() throws {
        let card = try JoinCard(network: nil, galleryAddress: "http://booth.local:8080/", code: "K7PQ2M")
        #expect(try zbarimg(card.png()) == ["http://booth.local:8080/?code=K7PQ2M"])
    }

    @Test func thePNGIsA6At300DPI() throws {
        let card = try JoinCard(network: nil, galleryAddress: "http://booth.local/", code: "K7PQ2M")
        let png = try card.png()
        #expect(png.prefix(8).elementsEqual([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        #expect(Self.uint32(png, at: 16) == 1240 && Self.uint32(png, at: 20) == 1748)
        // pHYs right after IHDR: 11811 pixels a metre (300 dpi) both ways, unit metre.
        #expect(png[37..<41].elementsEqual("pHYs".utf8))
        #expect(Self.uint32(png, at: 41) == 11811 && Self.uint32(png, at: 45) == 11811 && png[49] == 1)
    }

    /// The PDF read by poppler (pdfinfo), then drawn by poppler (pdftoppm) and its QR codes read by zbarimg.
    @Test func thePDFIsOneA6PageWhoseCodesReadBack() throws {
        let network = try WiFiNetwork(name: "HeyLook-7Q2M", passphrase: "duck-apple-rain")
        let card = try JoinCard(network: network, galleryAddress: "http://booth.local/", code: "K7PQ2M")
        let folder = try Self.temporaryFolder()
        defer { _ = Self.shell("rm -rf '\(folder)'") }
        try Self.save(card.pdf(), to: "\(folder)/card.pdf")
        let info = Self.shell("pdfinfo '\(folder)/card.pdf'")
        #expect(info.status == 0, "pdfinfo failed (scripts/install-deps --test installs poppler-utils): \(info.output)")
        #expect(info.output.contains("Pages:           1"))
        #expect(info.output.contains("Page size:       297.638 x 419.528 pts"))  // A6: 105 x 148 mm.
        #expect(info.output.contains("Title:           Photos from the booth"))
        #expect(Self.shell("pdftoppm -png -r 200 -singlefile '\(folder)/card.pdf' '\(folder)/page'").status == 0)
        let read = Self.shell("zbarimg --quiet --raw '\(folder)/page.png' 2>/dev/null")
        #expect(
            read.output.split(separator: "\n").sorted()
                == [
                    "WIFI:T:WPA;S:HeyLook-7Q2M;P:duck-apple-rain;;", "http://booth.local/?code=K7PQ2M",
                ].sorted())
    }

    @Test(arguments: ["booth.local", "ftp://booth", "http://booth.local/?code=x", "http://a b/"])
    func anAddressThatIsNotAGalleryURLIsRefused(address: String) {
        #expect(throws: JoinCardError.self) { try JoinCard(network: nil, galleryAddress: address, code: "K7PQ2M") }
    }

    // MARK: Helpers

    /// The texts zbarimg reads in `png`, one per symbol.
    private func zbarimg(_ png: [UInt8]) throws -> [String] {
        let folder = try Self.temporaryFolder()
        defer { _ = Self.shell("rm -rf '\(folder)'") }
        try Self.save(png, to: "\(folder)/card.png")
        let read = Self.shell("zbarimg --quiet --raw '\(folder)/card.png' 2>/dev/null")
        #expect(read.status != 127 << 8, "zbarimg is not installed: scripts/install-deps --test installs zbar-tools")
        #expect(read.status == 0, "zbarimg found no QR code in the card")
        return read.output.split(separator: "\n").map(String.init)
    }

    private static func temporaryFolder() throws -> String {
        var template = Array("/tmp/join-card-XXXXXX".utf8CString)
        try #require(mkdtemp(&template) != nil, "cannot make a temporary folder")
        return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func save(_ bytes: [UInt8], to path: String) throws {
        let file = try #require(fopen(path, "w"), "cannot write \(path)")
        #expect(fwrite(bytes, 1, bytes.count, file) == bytes.count)
        fclose(file)
    }

    /// Runs `command` in sh: its exit status (as `pclose` gives it) and standard output.
    private static func shell(_ command: String) -> (status: Int32, output: String) {
        guard let pipe = popen(command, "r") else { return (-1, "") }
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while case let count = fread(&buffer, 1, buffer.count, pipe), count > 0 { output += buffer[..<count] }
        return (pclose(pipe), String(decoding: output, as: UTF8.self))
    }

    /// Field `key` of a WIFI: text, unescaped (a reader's view, written here independently of the escaping).
    private static func field(_ key: Character, of text: String) -> String? {
        var fields: [Character: String] = [:]
        var current = ""
        var escaped = false
        for character in text.dropFirst("WIFI:".count) {
            if escaped {
                current.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == ";" {
                if let colon = current.firstIndex(of: ":"), current.distance(from: current.startIndex, to: colon) == 1 {
                    fields[current.first!] = String(current[current.index(after: colon)...])
                }
                current = ""
            } else {
                current.append(character)
            }
        }
        return fields[key]
    }

    private static func uint32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        bytes[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }
}
