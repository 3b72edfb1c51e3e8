// PrintSheet: what the booth prints for photos kept together: the photos themselves, or layouts made from them.
import BoothCore
import BoothSystem
import PhotoModel
import PhotoStore
import Printing

/// What is printed for the photos of one sequence (`print.layout`, `print.title`, `print.date`, `print.logo`): each
/// photo as it is (the photo layout, no caption, no logo), or pages rendered by `LayoutRenderer` (a photo with its
/// caption and logo, a strip or a grid of up to four shots; a longer burst makes a page per four) and kept in the
/// store's `layouts/` folder beside the photos, named after their first photo. The logo is checked when the booth
/// starts (`checkLogo`) and read again for each page: one that cannot be read or drawn any more is left out, the page
/// printed without it and the journal told why (a print in the hand before a logo). Any thread.
package struct PrintSheet: Sendable {
    package let layout: PrintLayout
    package let title: String
    package let dated: Bool
    /// The logo's path, "" for none.
    let logo: String

    package init(settings: BoothSettings) {
        layout = settings.printPage
        title = settings.printTitle
        dated = settings.printDate
        logo = settings.printLogo
    }

    /// Whether the photos are printed as they are.
    var printsPhotosAsTheyAre: Bool { layout.kind == .photo && title.isEmpty && !dated && logo.isEmpty }

    /// At the start: the logo, when there is one, read and checked; a bad one is an error naming the fix.
    package func checkLogo() throws(PrintError) {
        if !logo.isEmpty { _ = try PrintLogo.read(logo) }
    }

    /// The logo for a page now, and why there is none when one was asked for but cannot be used.
    package func currentLogo() -> (logo: PrintLogo?, problem: String?) {
        guard !logo.isEmpty else { return (nil, nil) }
        do throws(PrintError) {
            return (try PrintLogo.read(logo), nil)
        } catch {
            return (nil, error.description)
        }
    }

    /// The files to print for `photos` (paths in the store), rendering and saving the layouts they need.
    func pages(for photos: [String]) throws(PrintError) -> [String] {
        guard !printsPhotosAsTheyAre else { return photos }
        let groups: [[String]] =
            layout.kind == .photo
            ? photos.map { [$0] }
            : stride(from: 0, to: photos.count, by: PrintLayout.maximumShots).map {
                Array(photos[$0..<min($0 + PrintLayout.maximumShots, photos.count)])
            }
        var pages: [String] = []
        for group in groups {
            let page = try render(group)
            if let problem = page.logoProblem { Log.warning("print: \(problem); printed without the logo") }
            let folder = PhotoStore.layoutsDirectory(of: Self.folder(of: group[0]))
            let name = Self.layoutName(of: Self.name(of: group[0]), kind: layout.kind)
            do {
                try PhotoStore.makeDirectories(folder)
                try DurableFile().write(page.jpeg, path: folder + "/" + name, replacing: true)
            } catch {
                throw PrintError("the layout for \(Self.name(of: group[0])) could not be kept: \(error)")
            }
            pages.append(folder + "/" + name)
        }
        return pages
    }

    /// The page for `photos` (paths), without keeping it; a logo left out says why (`logoProblem`).
    package func render(_ photos: [String]) throws(PrintError) -> LayoutRenderer.Page {
        var files: [(name: String, jpeg: [UInt8])] = []
        for path in photos {
            let bytes: [UInt8]?
            do {
                bytes = try FileReading.contents(of: path, limit: 64 << 20)
            } catch {
                throw PrintError("\(path) cannot be read: \(error.systemError(reading: path))")
            }
            guard let bytes else { throw PrintError("\(path) is gone (moved or deleted): nothing to print") }
            files.append((Self.name(of: path), bytes))
        }
        let date = dated ? Self.caption(forPhotoNamed: Self.name(of: photos[0])) : ""
        let (logo, problem) = currentLogo()
        var page = try LayoutRenderer.render(layout, photos: files, title: title, date: date, logo: logo)
        page.logoProblem = page.logoProblem ?? problem
        return page
    }

    /// The date a caption gives a photo, e.g. "5 December 2026"; "" for an undated photo or a name the booth did
    /// not give.
    static func caption(forPhotoNamed name: String) -> String {
        guard let date = PhotoName(fileName: name)?.dateTime else { return "" }
        let months = [
            "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
            "November", "December",
        ]
        guard (1...12).contains(date.month) else { return "" }
        return "\(date.day) \(months[date.month - 1]) \(date.year)"
    }

    /// The name of the `kind` layout whose first photo is called `photo` (`LayoutName`; a photo the booth did not
    /// name gets its name with the kind before the extension too).
    static func layoutName(of photo: String, kind: PrintLayout.Kind) -> String {
        if let name = PhotoName(fileName: photo) { return LayoutName(photo: name, kind: kind.rawValue).fileName }
        return photo.replacingSuffix(".jpg", with: "") + "-\(kind.rawValue).jpg"
    }

    private static func name(of path: String) -> String { FilePath(path).name }

    private static func folder(of path: String) -> String { FilePath(path).folder }
}

extension String {
    /// The string without `suffix` at its end, and `replacement` there instead; itself when it does not end so.
    fileprivate func replacingSuffix(_ suffix: String, with replacement: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) + replacement : self
    }
}
