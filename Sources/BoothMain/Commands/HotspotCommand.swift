// HotspotCommand: `booth hotspot on|off|status`, the booth's own Wi-Fi for a party with none.
import ArgumentParser
import BoothRuntime
import BoothSystem
import GalleryCore

/// `sudo booth hotspot on|off|status`: makes the Pi a Wi-Fi access point (NetworkManager's shared mode) named and
/// locked by `/etc/heylook/hotspot.toml` (made with a new passphrase the first time), on which every name leads to the
/// gallery; `off` puts back the connection that was there.
struct HotspotCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hotspot",
        abstract: "Turn the booth's own Wi-Fi on or off (NetworkManager; run with sudo), or show it."
    )

    enum Action: String, ExpressibleByArgument, CaseIterable {
        /// Start the access point (and at every boot).
        case on
        /// Stop it and restart the connection that was on before.
        case off
        /// Print whether it is on, its name and passphrase.
        case status
    }

    @Argument(help: "on: start the booth's Wi-Fi (and at every boot); off: stop it; status: show it.")
    var action: Action

    @Option(help: "The hotspot's settings: name and passphrase (default: /etc/heylook/hotspot.toml).")
    var settings = HotspotSettings.defaultPath

    func run() throws {
        switch action {
        case .on:
            let hotspot = try NetworkManagerHotspot()
            _ = try hotspot.wifiDevice()  // No settings made on a Pi that cannot have a hotspot.
            let (settings, made) = try Self.settings(settings, makeIfMissing: true)
            let interface = try hotspot.on(settings)
            if made { print("made \(self.settings) with a new passphrase") }
            print("hotspot on (\(interface)): Wi-Fi \(settings.network.name), password \(settings.network.passphrase)")
            print("gallery: http://\(HotspotSettings.address)/ (every name leads there on this Wi-Fi)")
            if !GalleryCommand.socketEnabled {
                print("the gallery is off: sudo systemctl enable --now heylook-gallery.socket")
            }
            print("print the card guests scan: booth card")
            if Self.confirmOnLEDs(hotspot.bus) { print("the booth's LEDs confirm it: the row fills up three times") }
        case .off:
            let hotspot = try NetworkManagerHotspot()
            let restored = try hotspot.off()
            print("hotspot off" + (restored.map { "; back on \($0)" } ?? ""))
        case .status:
            let hotspot = try NetworkManagerHotspot()
            let status = try hotspot.status()
            print(
                "hotspot: \(status.active ? "on" : status.profileInstalled ? "installed, not on" : "off") (\(status.interface))"
            )
            switch status.answer {
            case .other(let addresses):
                print(
                    "but its name server answers \(addresses.joined(separator: ", ")), not the booth: check "
                        + "/etc/NetworkManager/dnsmasq-shared.d, then sudo booth hotspot on")
            case .silent:
                print(
                    "but its name server (dnsmasq) does not answer, so phones do not reach the gallery: "
                        + "journalctl -u NetworkManager, then sudo booth hotspot on")
            case .booth, nil: break
            }
            if let (settings, _) = try? Self.settings(settings, makeIfMissing: false) {
                print("Wi-Fi \(settings.network.name), password \(settings.network.passphrase)")
            }
        }
    }

    /// Asks systemd to send the running booth's main process `SignalSource.hotspotStarted` (the booth shows
    /// `LEDPattern.hotspotOn` if it is waiting for a press); false when the booth's service is not running.
    static func confirmOnLEDs(_ bus: SystemBus) -> Bool {
        do {
            try bus.call(
                "org.freedesktop.systemd1", "/org/freedesktop/systemd1", "org.freedesktop.systemd1.Manager", "KillUnit",
                signature: "ssi", ["heylook-booth.service", "main", String(SignalSource.hotspotStarted)])
            return true
        } catch {
            return false
        }
    }

    /// The settings at `path`; when it does not exist and `makeIfMissing`, new ones written there (root only: the
    /// passphrase). Returns them and whether they were made.
    static func settings(_ path: String, makeIfMissing: Bool) throws -> (HotspotSettings, Bool) {
        if let saved = try saved(path) { return (saved, false) }
        guard makeIfMissing else { throw BoothFailure("\(path) does not exist: sudo booth hotspot on makes it") }
        var random = SystemRandomNumberGenerator()
        let settings = HotspotSettings.generated(using: &random)
        do {
            try DurableFile().write(Array(settings.fileText.utf8), path: path, mode: 0o600)
        } catch {
            throw BoothFailure("cannot write \(path): \(error) (run it as root: sudo booth hotspot on)")
        }
        return (settings, true)
    }

    /// The settings at `path`, or nil when there is no such file.
    static func saved(_ path: String) throws -> HotspotSettings? {
        guard let text = try ConfigLoader.readText(path) else { return nil }
        do {
            return try HotspotSettings(parsing: text)
        } catch {
            throw BoothFailure("\(path): \(error)")
        }
    }
}
