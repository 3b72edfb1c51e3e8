// PrintLogoTests: a logo file is read and checked from its header; each bad one is refused naming the file and the fix.
import BoothSystem
import BoothTestSupport
import Printing
import Testing

struct PrintLogoTests {
    private let folder = temporaryDirectory()

    /// `bytes` written to `name` in the test's folder; its path.
    private func file(_ name: String, _ bytes: [UInt8]) throws -> String {
        let path = folder + "/" + name
        try DurableFile().write(bytes, path: path)
        return path
    }

    /// The error reading `path` gives, or nil when it reads.
    private func problem(_ path: String) -> String? {
        do throws(PrintError) {
            _ = try PrintLogo.read(path)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func aPNGIsReadWithItsSizeFromItsHeader() throws {
        let png = PNGFixtures.rgba(width: 30, height: 10) { x, _ in x < 15 ? [200, 0, 150, 255] : [0, 0, 0, 0] }
        let logo = try PrintLogo.read(try file("logo.png", png))
        #expect((logo.width, logo.height) == (30, 10) && logo.aspect == 3 && logo.png == png)
    }

    @Test func aMissingLogoNamesTheFileAndWhereToPutIt() {
        #expect(
            problem(folder + "/gone.png")
                == "print.logo: \(folder)/gone.png does not exist (the booth's service cannot see /home, /root or "
                + "/tmp: copy it to /etc/heylook/): copy the logo (a PNG) there, e.g. to /etc/heylook/logo.png, or "
                + "set print.logo = \"\" for none")
        #expect(
            problem("/etc/heylook-test-none/logo.png")
                == "print.logo: /etc/heylook-test-none/logo.png does not exist: copy the logo (a PNG) there, e.g. to "
                + "/etc/heylook/logo.png, or set print.logo = \"\" for none")
    }

    @Test func aFileThatIsNoPNGIsRefusedSayingWhatItIs() throws {
        let fix = "save the logo as PNG (a transparent background prints best on the white page)"
        let jpeg = try file("logo.png", [0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: 0, count: 100))
        #expect(problem(jpeg) == "print.logo: \(jpeg) is not a PNG file (it is a JPEG): \(fix)")
        let svg = try file("logo.svg", Array("<?xml version=\"1.0\"?>\n<svg width=\"10\"></svg>".utf8))
        #expect(problem(svg) == "print.logo: \(svg) is not a PNG file (it is an SVG): \(fix)")
        let empty = try file("empty.png", [])
        #expect(problem(empty) == "print.logo: \(empty) is not a PNG file (it is empty): \(fix)")
        let cut = try file("cut.png", PNGFixtures.signature + [0, 0])
        #expect(problem(cut) == "print.logo: \(cut) is a damaged PNG (no image header): save the logo as PNG again")
        #expect(problem(folder)?.hasPrefix("print.logo: \(folder) cannot be read (Is a directory (EISDIR))") == true)
    }

    @Test func aLogoTooLargeIsRefusedBeforeCairoDecodesIt() throws {
        let fix = "save it smaller (it prints 9 mm high: 1000 pixels wide is plenty)"
        // Only the header: the size is read from it, so a huge logo is never decoded.
        let wide = try file("wide.png", PNGFixtures.signature + PNGFixtures.header(width: 4001, height: 300))
        #expect(problem(wide) == "print.logo: \(wide) is 4001 x 300 pixels, more than 4000 x 4000: \(fix)")
        let tall = try file("tall.png", PNGFixtures.signature + PNGFixtures.header(width: 10, height: 100_000))
        #expect(problem(tall) == "print.logo: \(tall) is 10 x 100000 pixels, more than 4000 x 4000: \(fix)")
        let heavy = try file(
            "heavy.png",
            PNGFixtures.signature + PNGFixtures.header(width: 10, height: 10)
                + Array(repeating: 0, count: PrintLogo.maximumBytes))
        #expect(problem(heavy) == "print.logo: \(heavy) is larger than 4 MiB: \(fix)")
        let justSo = try file("4000.png", PNGFixtures.signature + PNGFixtures.header(width: 4000, height: 4000))
        #expect(problem(justSo) == nil)
    }
}
