// NetworkManagerHotspot: the booth's own Wi-Fi, made and undone through NetworkManager's D-Bus API and a keyfile.
import BoothRuntime
import BoothSystem
import BoothTime
import GalleryCore

/// Turns the booth's own Wi-Fi on and off through NetworkManager (Raspberry Pi OS's network manager): a keyfile
/// profile in shared mode (`HotspotSettings.profile`) bound to the Wi-Fi device, the shared mode's DNS rule, and the
/// connection that was on the device before, restarted by `off`. Run as root (`sudo booth hotspot`); the booth's
/// own service never touches the network.
struct NetworkManagerHotspot {
    static let service = "org.freedesktop.NetworkManager"
    static let managerPath = "/org/freedesktop/NetworkManager"
    static let settingsPath = "/org/freedesktop/NetworkManager/Settings"
    static let manager = "org.freedesktop.NetworkManager"
    static let settings = "org.freedesktop.NetworkManager.Settings"
    static let device = "org.freedesktop.NetworkManager.Device"
    static let wireless = "org.freedesktop.NetworkManager.Device.Wireless"
    static let active = "org.freedesktop.NetworkManager.Connection.Active"
    /// NM_DEVICE_TYPE_WIFI, NM_WIFI_DEVICE_CAP_AP, NM_DEVICE_STATE_UNMANAGED, NM_ACTIVE_CONNECTION_STATE_*.
    static let wifiType = "2"
    static let accessPointCapability: UInt32 = 0x40
    static let unmanaged = "10"
    static let activated = "2"
    static let deactivated = "4"

    /// Where its files go.
    struct Paths {
        var profiles = "/etc/NetworkManager/system-connections"
        var dnsRules = "/etc/NetworkManager/dnsmasq-shared.d"
        /// The UUID and name of the connection the Wi-Fi device had before `on`, for `off`.
        var previous = "/var/lib/heylook/hotspot-previous"
    }

    /// Where the hotspot is.
    struct Status: Equatable {
        /// The Wi-Fi device's interface and whether the booth's profile is active on it.
        var interface: String
        var profileInstalled: Bool
        var active: Bool
        /// What the hotspot's name server answered when active (nil when not).
        var answer: NameServerAnswer? = nil
    }

    /// What the hotspot's name server (NetworkManager's dnsmasq, which also hands out addresses) answered when asked
    /// for a phone's connectivity-check name.
    enum NameServerAnswer: Equatable {
        /// The booth's address: phones get addresses and land on the gallery.
        case booth
        /// Other addresses (or none): the DNS rule is not in effect.
        case other([String])
        /// No answer at all: dnsmasq is not running (phones get no address either) or not answering names.
        case silent
    }

    let bus: SystemBus
    var paths = Paths()
    /// How long `on` waits for NetworkManager to call the hotspot up: a few seconds on a Pi, and room for a busy one (a
    /// WPA3 access point once took longer than 30 s in an emulated Pi beside a busy host).
    var activationTimeout: Duration = .seconds(60)
    /// How long `on` waits for the name server to answer once NetworkManager calls the hotspot up.
    var answerTimeout: Duration = .seconds(20)

    /// Connects to NetworkManager; a clear failure where it is not there. While it is still starting (just after
    /// boot: it has not found its devices yet, and would seem to have no Wi-Fi), waits up to `startTimeout`
    /// for it, saying so once through `waiting`.
    init(
        paths: Paths = Paths(), startTimeout: Duration = .seconds(60),
        waiting: (String) -> Void = { Log.info($0) }
    ) throws(BoothFailure) {
        do {
            bus = try SystemBus()
        } catch {
            throw BoothFailure(
                "cannot reach the system bus (\(error)): the hotspot needs a system with D-Bus and NetworkManager")
        }
        self.paths = paths
        try waitUntilStarted(timeout: startTimeout, waiting: waiting)
    }

    /// Returns once NetworkManager answers and its `Startup` is false (it has found its devices and started the
    /// connections it starts by itself); waits for that at most `timeout`. Its unit is up a moment
    /// before its objects answer: a failure other than "not running" is asked again until then.
    private func waitUntilStarted(timeout: Duration, waiting: (String) -> Void) throws(BoothFailure) {
        let clock = KernelClock()
        let deadline = clock.now() + timeout
        var said = false
        while true {
            do {
                if try bus.property(Self.service, Self.managerPath, Self.manager, "Startup") != "true" { return }
            } catch  where error.code == .noSuchAddressOrDevice {
                throw BoothFailure(
                    "NetworkManager is not running: the hotspot needs it (Raspberry Pi OS bookworm has it; elsewhere "
                        + "sudo apt install network-manager, and let it manage the Wi-Fi)")
            } catch {
                guard clock.now() < deadline else { throw BoothFailure("cannot ask NetworkManager: \(error)") }
            }
            guard clock.now() < deadline else {
                throw BoothFailure(
                    "NetworkManager is still starting after \(timeout.spoken): try again in a minute "
                        + "(systemctl status NetworkManager says what it is doing)")
            }
            if !said {
                waiting("waiting for NetworkManager to finish starting…")
                said = true
            }
            ThreadSleep.pause(for: .milliseconds(200))
        }
    }

    /// The Wi-Fi device that can be an access point: its D-Bus path and interface.
    func wifiDevice() throws(BoothFailure) -> (path: String, interface: String) {
        var found: [String] = []
        for path in try call(Self.managerPath, Self.manager, "GetDevices").split(separator: "\n").map(String.init) {
            guard try property(path, Self.device, "DeviceType") == Self.wifiType else { continue }
            let interface = try property(path, Self.device, "Interface")
            found.append(interface)
            guard try property(path, Self.device, "State") != Self.unmanaged else { continue }
            let capabilities = UInt32(try property(path, Self.wireless, "WirelessCapabilities")) ?? 0
            if capabilities & Self.accessPointCapability != 0 { return (path, interface) }
        }
        if found.isEmpty {
            throw BoothFailure(
                "NetworkManager has no Wi-Fi device: a Pi 3, 4, 5 or Zero 2 W has one built in (is it blocked? "
                    + "rfkill unblock wifi; is the Wi-Fi country set? sudo raspi-config, Localisation)")
        }
        throw BoothFailure(
            "no Wi-Fi device here can be an access point (\(found.joined(separator: ", ")): unmanaged by "
                + "NetworkManager or without access-point mode)")
    }

    /// Whether the profile is installed and active.
    func status() throws(BoothFailure) -> Status {
        let device = try wifiDevice()
        guard try profileConnection() != nil else {
            return Status(interface: device.interface, profileInstalled: false, active: false)
        }
        let activePath = try property(device.path, Self.device, "ActiveConnection")
        var active = false
        if activePath != "/" {
            let uuid = try? property(activePath, Self.active, "Uuid")
            let state = try? property(activePath, Self.active, "State")
            active = uuid == HotspotSettings.profileUUID && state == Self.activated
        }
        return Status(
            interface: device.interface, profileInstalled: true, active: active,
            answer: active ? nameServerAnswer(within: .seconds(1)) : nil)
    }

    /// Installs the profile for `settings` on the Wi-Fi device and starts it; waits until it is up. Returns the
    /// interface. When it does not come up, the profile and the DNS rule are removed again and the connection before
    /// it is started.
    @discardableResult
    func on(_ settings: HotspotSettings) throws(BoothFailure) -> String {
        let device = try wifiDevice()
        // What was on the device (a home Wi-Fi), to start again at `off`; not the hotspot itself.
        let activePath = try property(device.path, Self.device, "ActiveConnection")
        if activePath != "/", let uuid = try? property(activePath, Self.active, "Uuid"),
            uuid != HotspotSettings.profileUUID
        {
            let name = (try? property(activePath, Self.active, "Id")) ?? uuid
            try write(Array("\(uuid) \(name)\n".utf8), to: paths.previous, mode: 0o644)
        }
        // NetworkManager makes it only when it has a rule of its own.
        _ = SystemFileOperations().mkdir(paths.dnsRules, 0o755)
        try write(
            Array(HotspotSettings.dnsRule.utf8), to: "\(paths.dnsRules)/\(HotspotSettings.dnsRuleFile)", mode: 0o644)
        // NetworkManager reads a keyfile only when root owns it and nobody else can read it.
        try write(
            Array(settings.profile(interface: device.interface).utf8),
            to: "\(paths.profiles)/\(HotspotSettings.profileFile)", mode: 0o600)
        do throws(BoothFailure) {
            try call(Self.settingsPath, Self.settings, "ReloadConnections")
            guard let connection = try profileConnection() else {
                throw BoothFailure(
                    "NetworkManager did not load \(paths.profiles)/\(HotspotSettings.profileFile) (journalctl -u "
                        + "NetworkManager says why)")
            }
            let started = try call(
                Self.managerPath, Self.manager, "ActivateConnection", signature: "ooo", [connection, device.path, "/"])
            try waitUntilActivated(started, interface: device.interface)
            try waitUntilAnswering(interface: device.interface)
        } catch {
            // No profile left behind that would fail again at every boot; the Wi-Fi goes back to what it was on.
            _ = try? off()
            _ = SystemFileOperations().unlink("\(paths.profiles)/\(HotspotSettings.profileFile)")
            throw error
        }
        return device.interface
    }

    /// Removes the profile (NetworkManager stops it and deletes its file) and the DNS rule, and starts the connection
    /// the device had before. Returns that connection's name, if one was started.
    func off() throws(BoothFailure) -> String? {
        if let connection = try profileConnection() {
            try call(connection, "org.freedesktop.NetworkManager.Settings.Connection", "Delete")
        }
        _ = SystemFileOperations().unlink("\(paths.dnsRules)/\(HotspotSettings.dnsRuleFile)")
        guard let previous = try? ConfigLoader.readText(paths.previous) else { return nil }
        _ = SystemFileOperations().unlink(paths.previous)
        let fields = previous.split(separator: "\n").first?.split(separator: " ", maxSplits: 1).map(String.init) ?? []
        guard let uuid = fields.first,
            let connection = try? call(Self.settingsPath, Self.settings, "GetConnectionByUuid", signature: "s", [uuid])
        else { return nil }
        do {
            try call(Self.managerPath, Self.manager, "ActivateConnection", signature: "ooo", [connection, "/", "/"])
        } catch {
            throw BoothFailure("the hotspot is off, but the connection before it did not start again: \(error)")
        }
        return fields.count > 1 ? fields[1] : uuid
    }

    // MARK: Steps

    /// The D-Bus path of the booth's profile, or nil when NetworkManager has none.
    private func profileConnection() throws(BoothFailure) -> String? {
        do {
            return try bus.call(
                Self.service, Self.settingsPath, Self.settings, "GetConnectionByUuid", signature: "s",
                [HotspotSettings.profileUUID])
        } catch  where error.detail.contains("org.freedesktop.NetworkManager.Settings.InvalidConnection") {
            return nil
        } catch {
            throw BoothFailure("cannot ask NetworkManager for the hotspot's profile: \(error)")
        }
    }

    /// Waits for the active connection at `path` to come up (NetworkManager starts it in the background).
    private func waitUntilActivated(_ path: String, interface: String) throws(BoothFailure) {
        let clock = KernelClock()
        let deadline = clock.now() + activationTimeout
        while clock.now() < deadline {
            let state: String
            do {
                state = try bus.property(Self.service, path, Self.active, "State")
            } catch {
                state = Self.deactivated  // The active connection is gone: it failed.
            }
            if state == Self.activated { return }
            if state == Self.deactivated {
                throw BoothFailure(
                    "NetworkManager could not start the hotspot on \(interface): journalctl -u NetworkManager says "
                        + "why (the Wi-Fi country must be set: sudo raspi-config, Localisation; or its name server, "
                        + "dnsmasq, could not start: a rule in \(paths.dnsRules) it cannot read, another DNS server on "
                        + "port 53)")
            }
            ThreadSleep.pause(for: .milliseconds(100))
        }
        throw BoothFailure(
            "the hotspot on \(interface) did not come up within \(activationTimeout.spoken) (journalctl -u NetworkManager)"
        )
    }

    /// Waits until the hotspot's name server answers with the booth (NetworkManager can call a shared connection up
    /// while its dnsmasq is not answering names, or not running at all); a failure that says which.
    private func waitUntilAnswering(interface: String) throws(BoothFailure) {
        let clock = KernelClock()
        let deadline = clock.now() + answerTimeout
        var answer = NameServerAnswer.silent
        repeat {
            answer = nameServerAnswer(within: .milliseconds(500))
            if answer == .booth { return }
            ThreadSleep.pause(for: .milliseconds(200))
        } while clock.now() < deadline
        let rules = paths.dnsRules
        switch answer {
        case .booth: return
        case .other(let addresses):
            throw BoothFailure(
                "the hotspot on \(interface) came up, but its name server answers "
                    + "\(addresses.isEmpty ? "with no address" : addresses.joined(separator: ", ")), not the booth "
                    + "(\(HotspotSettings.address)), so phones would not find the gallery: another rule in \(rules) "
                    + "overrides \(HotspotSettings.dnsRuleFile); remove it and try again")
        case .silent:
            throw BoothFailure(
                "the hotspot on \(interface) came up, but its name server (NetworkManager's dnsmasq, which also gives "
                    + "phones their addresses) does not answer, so phones would not reach the gallery: journalctl -u "
                    + "NetworkManager says why (a rule in \(rules) dnsmasq cannot read or that turns it off, or "
                    + "another DNS server on port 53; is dnsmasq-base installed?)")
        }
    }

    /// What the hotspot's name server answers within `within` for the name Android phones check.
    private func nameServerAnswer(within: Duration) -> NameServerAnswer {
        var random = SystemRandomNumberGenerator()
        guard let query = DNSQuery(id: random.next(), name: "connectivitycheck.gstatic.com"),
            let reply = try? DatagramExchange.ask(
                query.bytes, ipv4: HotspotSettings.address, port: 53, timeout: within),
            let addresses = query.addresses(in: reply)
        else { return .silent }
        return addresses.contains(HotspotSettings.address) ? .booth : .other(addresses)
    }

    private func property(_ path: String, _ interface: String, _ name: String) throws(BoothFailure) -> String {
        do {
            return try bus.property(Self.service, path, interface, name)
        } catch {
            throw BoothFailure("cannot ask NetworkManager: \(error)")
        }
    }

    @discardableResult
    private func call(
        _ path: String, _ interface: String, _ method: String, signature: String = "", _ arguments: [String] = []
    ) throws(BoothFailure) -> String {
        do {
            return try bus.call(Self.service, path, interface, method, signature: signature, arguments)
        } catch  where error.code == .permissionDenied {
            throw BoothFailure("NetworkManager refused \(method): run it as root (sudo booth hotspot …)")
        } catch {
            throw BoothFailure("NetworkManager: \(error)")
        }
    }

    private func write(_ bytes: [UInt8], to path: String, mode: UInt32) throws(BoothFailure) {
        do {
            try DurableFile().write(bytes, path: path, replacing: true, mode: mode)
        } catch {
            throw BoothFailure("cannot write \(path): \(error) (run it as root: sudo booth hotspot on)")
        }
    }
}
