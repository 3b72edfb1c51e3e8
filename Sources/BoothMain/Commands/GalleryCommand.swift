// GalleryCommand: `booth gallery`, the photo gallery for guests' phones, a process of its own beside the booth.
import ArgumentParser
import BoothCore
import BoothRuntime
import BoothSystem
import Dispatch
import Gallery
import GalleryCore
import PhotoModel

/// `booth gallery`: serves the photo store to phones and tablets on the booth's network: the gallery, each photo
/// and its original, ZIPs of a day or of everything, and a slideshow. A process of its own, never a thread of the
/// booth's loop: nothing a phone does can delay a press. Read only: it never writes the store.
struct GalleryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gallery",
        abstract: "Serve the photos to phones: a gallery behind the event's code, originals, ZIPs and a slideshow."
    )

    /// What to do instead of serving.
    enum Action: String, ExpressibleByArgument, CaseIterable {
        /// Print the access code and the URL guests open, then exit.
        case code
    }

    @Argument(help: "'code': print the access code and the gallery's URL, and exit (default: serve).")
    var action: Action?

    @OptionGroup var configFile: ConfigOption

    @Option(
        name: .customLong("gallery-config"),
        help: "The gallery's settings: code and port (default: /etc/heylook/gallery.toml if it exists).")
    var galleryConfig: String?

    @Option(help: "The photos folder (default: the config's booth.photos_dir, or the simulator's store).")
    var photos: String?

    @Option(help: "The address to listen on (0.0.0.0: every network; 127.0.0.1: this machine only).")
    var host = "0.0.0.0"

    @Option(
        help:
            "The TCP port; 0 takes a free one (default: the settings' port, else 8080). The first line of output is the gallery's URL."
    )
    var port: Int?

    @Option(help: "The access code guests type (default: the settings' code, else a new random one, printed).")
    var code: String?

    @Option(help: "Where thumbnails are kept (default: $CACHE_DIRECTORY, else ~/.cache/heylook-gallery).")
    var cache: String?

    @Flag(
        help:
            "Set the system clock from the first phone that signs in while network time has not (the installed unit does; needs timedated and the package's polkit rule)."
    )
    var setClock = false

    func validate() throws {
        if let port, !(0...65535).contains(port) { throw ValidationError("--port must be 0 to 65535") }
        if let code, let problem = GalleryConfig.codeProblem(code) { throw ValidationError("--code: \(problem)") }
    }

    func run() throws {
        let saved = try Self.gallerySettings(galleryConfig)
        if action == .code {
            guard let code = saved.code else {
                throw BoothFailure(
                    "no access code set: \(galleryConfig ?? GalleryConfig.defaultPath) has none (the package makes it; "
                        + "add [gallery] code = \"K7PQ2M\" there)")
            }
            print("code: \(code)")
            print("URL: \(Self.url(host: host, port: Self.socketEnabled ? 80 : saved.port))")
            return
        }
        // Before any thread starts: the server's buffers go back to the system when freed (RSS stays bounded).
        if let warning = AllocatorLimits.apply() { Log.warning(warning) }
        var settings = try configFile.storeSettings(photosGiven: photos != nil)
        if let photos { settings.photosDirectory = photos }
        let code = self.code ?? saved.code ?? Self.newCode()
        var options = GalleryServer.Options(
            photos: settings.photosDirectory, cache: cache ?? Self.defaultCache, host: host, port: port ?? saved.port,
            code: code)
        options.log = { Log.info($0) }
        if setClock { options.clockMark = ClockMark.path }
        if settings.printMode != .off, settings.printFromGallery { options.printSocket = settings.galleryPrintSocket }
        let server: GalleryServer
        do {
            server = try GalleryServer(options: options)
        } catch {
            throw BoothFailure(
                "gallery: \(error); is \(settings.photosDirectory) the photos folder? (--photos DIR or --config FILE)")
        }
        let host = self.host
        let failure = Failure()
        let done = DispatchSemaphore(value: 0)
        // The server runs on Swift's concurrency threads; this thread only waits for it to end (SIGTERM, SIGINT).
        Task {
            do {
                try await server.run { port in
                    print("\(Self.url(host: host, port: port))")
                    print("code: \(code)")
                    StandardStream.flushAll()
                }
            } catch {
                failure.message = "gallery: \(error)"
            }
            done.signal()
        }
        done.wait()
        if let message = failure.message { throw BoothFailure(message) }
    }

    /// The gallery's settings: the file `given` (`--gallery-config`), else /etc/heylook/gallery.toml when it exists,
    /// else none.
    static func gallerySettings(_ given: String?) throws -> GalleryConfig {
        let path = given ?? (FileAccess.exists(GalleryConfig.defaultPath) ? GalleryConfig.defaultPath : nil)
        guard let path else { return GalleryConfig() }
        guard let text = try ConfigLoader.readText(path) else { throw BoothFailure("\(path) does not exist") }
        do {
            return try GalleryConfig(parsing: text)
        } catch {
            throw BoothFailure("\(path): \(error)")
        }
    }

    /// Whether the gallery's socket (port 80) is enabled on this machine.
    static var socketEnabled: Bool {
        FileAccess.exists("/etc/systemd/system/sockets.target.wants/heylook-gallery.socket")
    }

    /// The URL a phone opens: this machine's name on the local network when listening on every address.
    static func url(host: String, port: Int) -> String {
        var name = host
        if host == "0.0.0.0" || host == "::" {
            name = HostName.current() + ".local"
        } else if host.contains(":") {
            name = "[\(host)]"
        }
        return port == 80 ? "http://\(name)/" : "http://\(name):\(port)/"
    }

    /// Six letters and digits a guest cannot misread (no 0/O, 1/I/L).
    static func newCode() -> String {
        let alphabet = Array("ABCDEFGHJKMNPQRSTUVWXYZ23456789")
        var generator = SystemRandomNumberGenerator()
        return String((0..<6).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] })
    }

    static var defaultCache: String {
        if let systemd = Environment.value("CACHE_DIRECTORY") { return systemd }
        let home = Environment.value("HOME") ?? "/tmp"
        return "\(home)/.cache/heylook-gallery"
    }

    /// What the server's task reports back to the waiting thread.
    private final class Failure: @unchecked Sendable {
        var message: String?
    }
}
