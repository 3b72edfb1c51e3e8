// CardCommand: `booth card`, the printable join card that takes guests' phones to the photos.
import ArgumentParser
import BoothRuntime
import BoothSystem
import GalleryCore
import JoinCard
import Printing

/// `booth card`: writes the join card (A6; a PNG at 300 dpi and a PDF) with a QR code that joins the booth's Wi-Fi
/// and one that opens the gallery with the event's code, and the same in words; with `--print`, also a JPEG of it sent
/// to the printer through CUPS.
struct CardCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "card",
        abstract: "Write the card guests scan to join the Wi-Fi and open the photos (A6: PNG at 300 dpi and PDF)."
    )

    @Option(
        help: """
            The Wi-Fi guests join first (default: the booth's own, from the hotspot settings; without one the card \
            holds only the gallery).
            """)
    var wifiName: String?

    @Option(help: "That Wi-Fi's WPA passphrase (8 to 63 characters).")
    var wifiPassword: String?

    @Option(
        help: """
            The gallery's address (default: http://10.42.0.1/ with the booth's own Wi-Fi, else \
            http://HOSTNAME.local/ with the gallery's port).
            """)
    var url: String?

    @Option(help: "The booth's own Wi-Fi's settings (default: /etc/heylook/hotspot.toml if it exists).")
    var hotspotSettings: String?

    @Option(help: "The gallery's access code (default: the gallery settings' code).")
    var code: String?

    @Option(
        name: .customLong("gallery-config"),
        help: "The gallery's settings: code and port (default: /etc/heylook/gallery.toml if it exists).")
    var galleryConfig: String?

    @Option(help: "The folder to write join-card.png and join-card.pdf into (it must exist).")
    var output = "."

    @Flag(
        name: .customLong("print"),
        help: """
            Also print the card through CUPS: join-card.jpg (A6 at 300 dpi) is written beside the others and sent to \
            --queue, else print.queue from the config, else CUPS's default queue.
            """)
    var printCard = false

    @Option(help: "The CUPS queue --print sends the card to (default: print.queue, else CUPS's default queue).")
    var queue: String?

    @OptionGroup var configFile: ConfigOption

    func validate() throws {
        if (wifiName == nil) != (wifiPassword == nil) {
            throw ValidationError("--wifi-name and --wifi-password go together: give both, or neither for no Wi-Fi")
        }
        if let wifiName, let wifiPassword, let problem = WiFiNetwork.problem(name: wifiName, passphrase: wifiPassword) {
            throw ValidationError(problem)
        }
        if let code, let problem = GalleryConfig.codeProblem(code) { throw ValidationError("--code: \(problem)") }
    }

    func run() throws {
        let saved = try GalleryCommand.gallerySettings(galleryConfig)
        guard let code = code ?? saved.code else {
            throw BoothFailure(
                "no access code: \(galleryConfig ?? GalleryConfig.defaultPath) has none; give --code K7PQ2M, or set "
                    + "[gallery] code = \"K7PQ2M\" there")
        }
        // The booth's own Wi-Fi unless another is given: its network, and the booth's fixed address on it.
        var hotspot: HotspotSettings?
        if wifiName == nil {
            let path = hotspotSettings ?? HotspotSettings.defaultPath
            hotspot = try HotspotCommand.saved(path)
            if hotspot == nil, hotspotSettings != nil { throw BoothFailure("\(path) does not exist") }
        }
        let address =
            url
            ?? (hotspot != nil
                ? "http://\(HotspotSettings.address)/"
                : GalleryCommand.url(host: "0.0.0.0", port: GalleryCommand.socketEnabled ? 80 : saved.port))
        let card: JoinCard
        var files: [(name: String, bytes: [UInt8])]
        let pdf: [UInt8]
        var page: [UInt8]?
        do {
            let network =
                try wifiName.map { name throws(WiFiNetwork.Invalid) in
                    try WiFiNetwork(name: name, passphrase: wifiPassword ?? "")
                } ?? hotspot?.network
            card = try JoinCard(network: network, galleryAddress: address, code: code)
            pdf = try card.pdf()
            files = [("join-card.png", try card.png()), ("join-card.pdf", pdf)]
            if printCard {
                let pixels = try card.pixels()
                page = try LayoutRenderer.page(pixels: pixels.rgb, width: pixels.width, height: pixels.height).jpeg
            }
        } catch {
            throw BoothFailure("card: \(error)")
        }
        if let page { files.append(("join-card.jpg", page)) }
        for file in files {
            do {
                try DurableFile().write(
                    file.bytes, directory: output, name: file.name, temporaryName: ".\(file.name).tmp", replacing: true)
            } catch {
                throw BoothFailure("card: \(error); is \(output) a folder you can write? (--output DIR)")
            }
            print("\(output)/\(file.name)")
        }
        // The booth's own copy, which every export puts on the stick (a booth with no screen hands it over).
        let store = try configFile.storeSettings()
        let kept = store.joinCardFile
        do {
            try DurableFile().write(pdf, path: kept, replacing: true)
            print("\(kept) (copied to each stick with the photos)")
        } catch {
            print(Self.notKept(error, stateFolder: store.stateFolder))
        }
        if let network = card.network { print("Wi-Fi: \(network.name), password: \(network.passphrase)") }
        print("gallery: \(card.galleryLink)")
        if printCard { try send("\(output)/join-card.jpg") }
    }

    /// Sends the card's page at `path` to the printer: the job's number, or what kept CUPS from taking it (the files
    /// written above are kept either way).
    private func send(_ path: String) throws {
        let client = CUPSClient(queue: try queue ?? configFile.settings().printQueue)
        do {
            let job = try client.print(path: path, title: "Join card", copies: 1)
            print("printing: job \(job) on \(client.queue.isEmpty ? "CUPS's default queue" : client.queue)")
        } catch {
            throw BoothFailure("card: not printed: \(error) (the card's files above are written)")
        }
    }

    /// Why the booth's own copy of the card (the one each export puts on the sticks) was not kept, and what to do: off
    /// an installed booth there is no state folder to keep it in, which is no fault (the card printed above is whole);
    /// on one, writing it needs the booth's rights.
    static func notKept(_ error: SystemError, stateFolder: String) -> String {
        if error.code == .noSuchFileOrDirectory {
            return "the copy for the sticks is kept only on an installed booth (there is no \(stateFolder) here); "
                + "the card above is complete"
        }
        return "not kept for the sticks (\(error)): run it as root on the booth (sudo booth card)"
    }
}
