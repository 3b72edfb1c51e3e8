// LayoutCommandTests: a logo that is no PNG stops `booth simulate` and `booth layout --preview` with the fix.
import BoothSystem
import BoothTestSupport
import Foundation
import Testing

@Suite(.offCooperativePool) struct LayoutCommandTests {
    private let folder = temporaryDirectory()

    @Test func aBadLogoIsAStartErrorOfTheBoothAndOfTheLayoutPreview() throws {
        let notPNG = folder + "/logo.png"
        try DurableFile().write([0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3], path: notPNG)
        let config = folder + "/booth.toml"
        try DurableFile().write(
            Array(
                "[booth]\nstate_file = \"\(folder)/state.toml\"\nphotos_dir = \"\(folder)/photos\"\n[print]\n"
                    .utf8) + Array("mode = \"each\"\nlayout = \"strip\"\nlogo = \"\(notPNG)\"\n".utf8),
            path: config)
        let expected =
            "print.logo: \(notPNG) is not a PNG file (it is a JPEG): save the logo as PNG (a transparent background "
            + "prints best on the white page)"
        let booth = try runBoothSimulate(["--fast", "--config", config], script: "press\nquit\n")
        #expect(booth.status != 0 && booth.errors.contains(expected), "\(booth.errors)")
        #expect(!FileAccess.exists(folder + "/photos/layouts"), "no photo taken, none printed")
        let preview = try runBooth(["layout", "--preview", folder + "/strip.jpg", "--config", config])
        #expect(preview.status != 0 && preview.errors.contains(expected), "\(preview.errors)")
        #expect(!FileAccess.exists(folder + "/strip.jpg"))
        // Made good, the preview draws it.
        try DurableFile().write(
            PNGFixtures.rgba(width: 40, height: 20) { _, _ in [200, 0, 150, 255] }, path: notPNG, replacing: true)
        let drawn = try runBooth(["layout", "--preview", folder + "/strip.jpg", "--config", config])
        #expect(drawn.status == 0, "\(drawn.errors)")
        #expect(FileAccess.exists(folder + "/strip.jpg"))
    }
}
