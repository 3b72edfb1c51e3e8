// PrintSheetTests: the logo is checked at the start, read again for each page, and left out (saying why) once gone.
import BoothCore
import BoothSystem
import BoothTestSupport
import Foundation
import Glibc
import PhotoEncoding
import Printing
import Testing

@testable import BoothRuntime

@Suite(.offCooperativePool) struct PrintSheetTests {
    private let folder = temporaryDirectory()

    /// A 40 × 20 logo, opaque magenta, written to the test's folder; its path.
    private func logo() throws -> String {
        let path = folder + "/logo.png"
        try DurableFile().write(PNGFixtures.rgba(width: 40, height: 20) { _, _ in [200, 0, 150, 255] }, path: path)
        return path
    }

    /// Two grey photos written to the test's folder; their paths.
    private func photos() throws -> [String] {
        try (1...2).map { shot in
            let path = folder + "/HeyLook_\(shot).jpg"
            let frame = PixelFrame(
                width: 400, height: 300, format: .rgb24,
                planes: [PixelPlane(bytes: [UInt8](repeating: 120, count: 400 * 300 * 3), stride: 400 * 3)])
            try DurableFile().write(try JPEGEncoder.encode(frame), path: path)
            return path
        }
    }

    /// Grid settings with the logo at `path`, printing each photo.
    private func settings(logo path: String) -> BoothSettings {
        var settings = BoothSettings()
        settings.printMode = .each
        settings.printLayout = .grid
        settings.printLogo = path
        return settings
    }

    /// The page's colour in the middle of the logo's left half.
    private func logoColour(_ page: LayoutRenderer.Page) throws -> [UInt8] {
        let decoded = try JPEGInspector.decode(page.jpeg)
        let place = PrintLayout(kind: .grid, logoAspect: 2).places(shots: 2, aspect: 4.0 / 3).logos[0]
        let (x, y) = (Int((place.x + place.width / 4) * 300 / 25.4), Int((place.y + place.height / 2) * 300 / 25.4))
        let at = y * decoded.planes[0].stride + x * 3
        return Array(decoded.planes[0].bytes[at..<(at + 3)])
    }

    @Test func aLogoGoneSinceTheStartIsLeftOutOfThePageWhichSaysWhy() throws {
        let path = try logo()
        let sheet = PrintSheet(settings: settings(logo: path))
        #expect(!sheet.printsPhotosAsTheyAre, "a logo alone makes a layout")
        try sheet.checkLogo()
        let photos = try photos()
        let drawn = try sheet.render(photos)
        #expect(drawn.logoProblem == nil)
        let seen = try logoColour(drawn)
        #expect(seen[0] > 170 && seen[1] < 40 && seen[2] > 120, "the logo: \(seen)")

        #expect(unlink(path) == 0)
        let missing =
            "print.logo: \(path) does not exist (the booth's service cannot see /home, /root or /tmp: copy it to "
            + "/etc/heylook/): copy the logo (a PNG) there, e.g. to /etc/heylook/logo.png, or set print.logo = \"\" "
            + "for none"
        #expect(throws: PrintError(missing)) { try sheet.checkLogo() }
        // The print is made all the same, without the logo: the pages say why, and `pages` tells the journal.
        let left = try sheet.render(photos)
        #expect(left.logoProblem == missing)
        let grey = try logoColour(left)
        #expect(grey.allSatisfy { abs(Int($0) - 120) < 12 }, "laid out without it, the photo is there: \(grey)")
        let pages = try sheet.pages(for: photos)
        #expect(pages.count == 1 && FileAccess.exists(pages[0]))
    }
}
