// ExportCommand: `booth export --to DIR`, the stick export by hand.
import ArgumentParser
import BoothCore
import BoothRuntime
import BoothSystem
import PhotoStore
import USBSticks

/// `booth export --to DIR`: copies every kept photo not yet in DIR, verified and recorded in DIR's
/// manifest, exactly as the booth does for a stick; `--unmount` then unmounts DIR (a mount point).
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Copy the kept photos to a folder or stick by hand (verified, with a manifest; only new photos).",
        discussion: """
            Photos go into DIR/<folder>/YYYY-MM-DD/ (folder from the config's export.folder, default HeyLook), \
            each read back and checked before it gets its name. Running it again copies only new photos.
            """
    )

    @Option(help: "The folder or mounted stick to export to.")
    var to: String?

    @Flag(
        help:
            "Instead of --to: wait for sticks mounted below the config's export.media_root and export to each, as the booth does (until the first export ends)."
    )
    var watch = false

    @Flag(help: "Flush and unmount DIR afterwards (it must be a mount point).")
    var unmount = false

    @Option(
        name: .customLong("file-systems"),
        help:
            "Comma-separated file system types allowed (e.g. vfat,exfat); default: any for a folder, vfat,exfat with --unmount."
    )
    var fileSystems: String?

    @OptionGroup var configFile: ConfigOption

    @Option(help: "The photos folder (overrides the config's booth.photos_dir).")
    var photos: String?

    func validate() throws {
        guard (to != nil) != watch else { throw ValidationError("give either --to DIR or --watch") }
    }

    func run() throws {
        var settings = try configFile.storeSettings(photosGiven: photos != nil)
        if let photos { settings.photosDirectory = photos }
        guard let to else { return try watchSticks(settings) }
        let target = to.count > 1 && to.hasSuffix("/") ? String(to.dropLast()) : to
        var allowed = Set((fileSystems ?? (unmount ? "vfat,exfat" : "")).split(separator: ",").map(String.init))
        let type: String
        do {
            type = try StickAdmission.fileSystemType(at: target)
        } catch {
            let what = error.operation == "open" ? "cannot open \(target)" : "cannot read the file system of \(target)"
            throw BoothFailure("\(what): \(ErrnoText.describe(error.errno))")
        }
        if allowed.isEmpty { allowed = [type] }
        // A stick (--unmount) must still be the file system mounted there: the last mount on that point.
        var device: String?
        if unmount {
            let table = MountTable.parse((try ConfigLoader.readText("/proc/self/mountinfo")) ?? "")
            guard let mount = table.last(where: { $0.mountPoint == target }) else {
                throw BoothFailure("\(target) is not a mount point: drop --unmount, or give the stick's mount point")
            }
            device = mount.device
        }
        let store: PhotoStore
        do {
            store = try PhotoStore(
                directory: settings.photosDirectory, reserve: settings.freeSpaceReserve, removingLeftovers: false)
        } catch {
            throw BoothFailure("photos folder: \(error)")
        }
        if store.indexWasRebuilt {
            Log.warning("the photo index was missing or damaged and was rebuilt from the files")
        }
        let exporter = StickExporter(
            store: store,
            options: ExportOptions(
                folder: settings.exportFolder, allowedFileSystems: allowed, unmount: unmount,
                unmounter: SystemdUnmounter(), joinCard: settings.joinCardFile, raw: settings.exportRaw))
        let terminal = StandardStream.error.isTerminal
        do {
            let summary = try exporter.export(to: target, device: device) { done, total in
                if terminal { toTerminal("\r\(done)/\(total) photos") }
            }
            if terminal { toTerminal("\n") }
            print(
                "\(summary.copied) copied (\(summary.bytes) bytes), \(summary.adopted) found and verified, "
                    + "\(summary.alreadyThere) already there; stick \(summary.stickID), booth \(store.boothID)")
            if summary.manifestRebuilt { print("the manifest was damaged and was rebuilt from the files found") }
            if summary.layouts + summary.layoutsAlreadyThere > 0 {
                print(
                    "\(summary.layouts) print layout(s) copied or verified, \(summary.layoutsAlreadyThere) already "
                        + "there (\(settings.exportFolder)/layouts)")
            }
            if summary.raw + summary.rawAlreadyThere > 0 {
                print(
                    "\(summary.raw) RAW file(s) copied or verified, \(summary.rawAlreadyThere) already there "
                        + "(beside their photos)")
            }
            if summary.joinCardCopied { print("the join card copied (\(settings.exportFolder)/join-card.pdf)") }
            for skip in summary.skipped { print("skipped \(skip.source): \(skip.reason)") }
            if summary.unmounted { print("\(target) is unmounted: safe to remove") }
            if let error = summary.unmountError {
                throw BoothFailure("every photo is copied and flushed, but \(target) could not be unmounted: \(error)")
            }
        } catch let error as ExportError {
            if terminal { toTerminal("\n") }
            throw BoothFailure(error.description + (error.unmounted ? " The stick is unmounted." : ""))
        }
    }

    /// The booth's own path: StickWatcher + ExportWorker on an event loop.
    private func watchSticks(_ settings: BoothSettings) throws {
        let store = try PhotoStore(
            directory: settings.photosDirectory, reserve: settings.freeSpaceReserve, removingLeftovers: false)
        let allowed =
            fileSystems.map { Set($0.split(separator: ",").map(String.init)) } ?? ExportOptions.defaultFileSystems
        let loop = try EventLoop()
        let owners = settings.exportSticks == .owner ? OwnerSticks(directory: settings.stateFolder) : nil
        var failure: String?
        print("waiting for a stick below \(settings.mediaRoot)")
        let worker = try ExportWorker(
            store: store, settings: settings, owners: owners, allowedFileSystems: allowed,
            sounds: StickSounds(settings: settings, allowedFileSystems: allowed), loop: loop
        ) { report in
            switch report {
            case .started(let point): print("export to \(point)")
            case .progress(_, let done, let total): print("\(done)/\(total)")
            case .finished(let point, let summary):
                print(
                    "\(point): \(summary.copied) copied, \(summary.adopted + summary.alreadyThere) already there"
                        + (summary.unmounted
                            ? "; unmounted: safe to remove"
                            : "; not unmounted: \(summary.unmountError.map(String.init(describing:)) ?? "")"))
                loop.stop()
            case .failed(let point, let fault, _):
                failure = "\(point): \(fault)"
                loop.stop()
            case .unknownStick(let point, let message):
                failure = "\(point): \(message)"
                loop.stop()
            case .claimed(let point): print("\(point) is now one of this booth's own sticks")
            case .removed(let point): print("\(point) went away")
            case .soundsImported(let point, let imported):
                for sound in imported.sounds { print("\(point): sound \(sound.name) imported") }
                for rejection in imported.rejections { print("\(point): \(rejection)") }
            }
        }
        try loop.run()
        worker.finish()
        if let failure { throw BoothFailure(failure) }
    }

    private func toTerminal(_ text: String) {
        StandardStream.error.write(text)
    }
}
