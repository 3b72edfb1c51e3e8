// LayoutCommand: `booth layout --preview FILE`, a print layout rendered to a file without a printer.
import ArgumentParser
import BoothCore
import BoothRuntime
import BoothSystem
import PhotoEncoding
import PhotoModel
import PhotoStore
import Printing

/// `booth layout --preview FILE [PHOTO...]`: renders the configured print layout (`print.layout`, `print.media`,
/// `print.margin_mm`, `print.title`, `print.date`, `print.logo`) as the booth would print it, into FILE (a JPEG at 300 dpi),
/// from the photos given, else the newest photos kept in the store, else colour bars: no printer, no CUPS.
struct LayoutCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "layout",
        abstract: "Render the print layout (print.layout, title, date, logo) to a JPEG without a printer."
    )

    @OptionGroup var configFile: ConfigOption

    @Option(help: "The JPEG to write.")
    var preview: String

    @Option(help: "A layout other than the config's: photo, strip or grid.")
    var layout: PrintLayout.Kind?

    @Argument(help: "The photos to lay out, in order (default: the newest kept photos in the store).")
    var photos: [String] = []

    func run() throws {
        var settings = try configFile.storeSettings(photosGiven: !photos.isEmpty)
        if let layout { settings.printLayout = layout }
        let shots = settings.printLayout == .photo ? 1 : PrintLayout.maximumShots
        var chosen = photos
        if chosen.isEmpty, !FileAccess.isMissing(settings.photosDirectory) {
            let kept = (try? PhotoStore.inspect(directory: settings.photosDirectory))?.filter { $0.state == .kept }
            chosen = (kept ?? []).suffix(shots).map { settings.photosDirectory + "/" + $0.name }
        }
        let sheet = PrintSheet(settings: settings)
        do throws(PrintError) {
            try sheet.checkLogo()
        } catch {
            throw BoothFailure(error.description)
        }
        let page: LayoutRenderer.Page
        if chosen.isEmpty {
            print("no photos in \(settings.photosDirectory): colour bars stand in for them")
            page = try Self.colourBars(shots: shots, sheet: sheet)
        } else {
            page = try sheet.render(chosen)
        }
        if let problem = page.logoProblem { Log.warning("\(problem); drawn without the logo") }
        do {
            try DurableFile().write(page.jpeg, path: preview, replacing: true)
        } catch {
            throw BoothFailure("cannot write \(preview): \(error)")
        }
        let used =
            chosen.isEmpty
            ? ""
            : " from "
                + chosen.map { FilePath($0).name }.joined(separator: ", ")
        print(
            "\(preview): \(settings.printLayout.rawValue) on \(settings.printMedia.rawValue), "
                + "\(page.width) x \(page.height) pixels at 300 dpi\(used)")
    }

    /// The layout drawn with colour bars numbered 1 to `shots` for photos.
    private static func colourBars(shots: Int, sheet: PrintSheet) throws -> LayoutRenderer.Page {
        let photos = try (1...shots).map { shot in
            (
                name: "bars \(shot)",
                jpeg: try JPEGEncoder.encode(TestPattern.render(width: 1600, height: 1200, text: "PHOTO \(shot)"))
            )
        }
        let (logo, problem) = sheet.currentLogo()
        var page = try LayoutRenderer.render(
            sheet.layout, photos: photos, title: sheet.title, date: sheet.dated ? "(the photo's date)" : "", logo: logo)
        page.logoProblem = page.logoProblem ?? problem
        return page
    }
}

extension PrintLayout.Kind: ExpressibleByArgument {}
