// PhotosCommand: `booth photos`, the store's photos with their state and exports.
import ArgumentParser
import BoothCore
import BoothRuntime
import BoothSystem
import PhotoModel
import PhotoStore

/// `booth photos`: lists every photo in the store — name, size, kept or discarded, and the sticks it
/// was exported to — without changing anything (safe while the booth runs).
struct PhotosCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "photos",
        abstract: "List the photos in the store: name, size, state (kept/discarded), sticks exported to."
    )

    @OptionGroup var configFile: ConfigOption

    @Option(help: "The photos folder (overrides the config's booth.photos_dir).")
    var photos: String?

    func run() throws {
        var settings = try configFile.storeSettings(photosGiven: photos != nil)
        if let photos { settings.photosDirectory = photos }
        guard !FileAccess.isMissing(settings.photosDirectory) else {
            throw BoothFailure(
                "photos folder \(settings.photosDirectory) does not exist yet: no photo was taken there; take one "
                    + "(booth simulate, or the booth's button), or name another folder with --photos DIR or --config FILE"
            )
        }
        let entries: [PhotoIndex.Entry]
        do {
            entries = try PhotoStore.inspect(directory: settings.photosDirectory)
        } catch {
            throw BoothFailure("photos folder: \(error)")
        }
        let width = entries.map(\.name.count).max() ?? 4
        func pad(_ s: String, _ n: Int) -> String { s + String(repeating: " ", count: max(0, n - s.count)) }
        func padLeft(_ s: String, _ n: Int) -> String { String(repeating: " ", count: max(0, n - s.count)) + s }
        print("\(pad("NAME", width))  \(padLeft("SIZE", 10))  \(pad("STATE", 9))  EXPORTED TO")
        for entry in entries {
            let sticks = entry.exportedTo.isEmpty ? "-" : entry.exportedTo.sorted().joined(separator: ",")
            print(
                "\(pad(entry.name, width))  \(padLeft(String(entry.size), 10))  \(pad(entry.state.rawValue, 9))  \(sticks)"
            )
        }
        let kept = entries.filter { $0.state == .kept }
        let notExported = kept.filter { $0.exportedTo.isEmpty }.count
        print("\(kept.count) kept (\(notExported) not exported yet), \(entries.count - kept.count) discarded")
    }
}
