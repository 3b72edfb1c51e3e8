// HotspotSettings: the booth's own Wi-Fi: its settings file, and the NetworkManager profile and DNS rule made of it.
import BoothConfig

/// The booth's own Wi-Fi for a party with none: its name and passphrase (`/etc/heylook/hotspot.toml`, made with a
/// new passphrase by the first `booth hotspot on`), and what NetworkManager is given: a keyfile profile in its
/// shared mode (an access point with DHCP and DNS for the phones) and a rule for that mode's DNS that answers every
/// name with the booth, so phones that join open the gallery by themselves.
public struct HotspotSettings: Hashable, Sendable {
    /// Where `booth hotspot` keeps it.
    public static let defaultPath = "/etc/heylook/hotspot.toml"
    /// The booth's address on its own Wi-Fi (NetworkManager's shared mode's usual one).
    public static let address = "10.42.0.1"
    /// NetworkManager's profile: its file name, its id and its fixed UUID (how `booth hotspot` finds it again).
    public static let profileFile = "heylook-hotspot.nmconnection"
    public static let profileID = "HeyLook hotspot"
    public static let profileUUID = "5e1f3b8a-7c2d-4a6e-9b0f-4865794c6f6b"
    /// The shared mode's DNS rule file (in `/etc/NetworkManager/dnsmasq-shared.d/`).
    public static let dnsRuleFile = "heylook-hotspot.conf"

    /// Which phones can join, and how.
    public enum Security: String, Hashable, Sendable, CaseIterable {
        /// WPA2 (PSK, CCMP): every phone joins. NetworkManager's access point can offer WPA3 beside it only without
        /// the protected management frames WPA3 requires, so phones would use WPA2 anyway: management frame
        /// protection is off, and only WPA2 is offered.
        case wpa2
        /// WPA3 alone (SAE, protected management frames required): phones of about 2019 on join; older ones cannot,
        /// and some Wi-Fi chips' firmware fails with WPA3 as an access point.
        case wpa3

        /// NetworkManager's `key-mgmt` and `pmf` (1 disabled, 3 required) for it.
        var keyManagement: (keyMgmt: String, pmf: Int) {
            switch self {
            case .wpa2: ("wpa-psk", 1)
            case .wpa3: ("sae", 3)
            }
        }
    }

    /// The network guests join.
    public var network: WiFiNetwork
    /// WPA2 or WPA3 (`security` in the file; WPA2 when it is not there).
    public var security: Security

    /// Settings for `network`.
    public init(network: WiFiNetwork, security: Security = .wpa2) {
        (self.network, self.security) = (network, security)
    }

    private static let file = SettingsFile(name: "hotspot settings", table: "hotspot")

    /// The settings in `text` (`[hotspot]` with `name` and `passphrase`, and `security` if not the usual).
    public init(parsing text: String) throws(ParseError) {
        var name: String?
        var passphrase: String?
        var security = Security.wpa2
        for entry in try Self.file.entries(text) {
            switch (entry.path, entry.value) {
            case ("hotspot.name", .string(let value)): name = value
            case ("hotspot.passphrase", .string(let value)): passphrase = value
            case ("hotspot.security", .string(let value)):
                guard let chosen = Security(rawValue: value) else {
                    throw Self.file.error(
                        line: entry.line,
                        "'security' must be \(Security.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: " or ")), "
                            + "not \"\(value)\"")
                }
                security = chosen
            case ("hotspot.name", _), ("hotspot.passphrase", _), ("hotspot.security", _):
                throw Self.file.error(line: entry.line, "'\(entry.path)' must be a string in quotes")
            default:
                throw Self.file.error(
                    line: entry.line, "unknown key '\(entry.path)'; allowed in [hotspot]: name, passphrase, security")
            }
        }
        self.security = security
        guard let name, let passphrase else {
            throw Self.file.error(line: nil, "[hotspot] needs both name and passphrase")
        }
        do {
            network = try WiFiNetwork(name: name, passphrase: passphrase)
        } catch {
            throw Self.file.error(line: nil, error.description)
        }
    }

    /// New settings: `HeyLook-` and four characters, and a passphrase of three groups of four lower-case letters and
    /// digits (about 62 bits; nothing a guest misreads: no 0/o, 1/l/i).
    public static func generated(using random: inout some RandomNumberGenerator) -> HotspotSettings {
        func pick(_ alphabet: String, _ count: Int) -> String {
            let letters = Array(alphabet)
            return String((0..<count).map { _ in letters[Int.random(in: 0..<letters.count, using: &random)] })
        }
        let lower = "abcdefghjkmnpqrstuvwxyz23456789"
        let name = "HeyLook-" + pick(lower.uppercased(), 4)
        let passphrase = [pick(lower, 4), pick(lower, 4), pick(lower, 4)].joined(separator: "-")
        // Both are valid by construction (12 ASCII letters and digits, a 12-byte name).
        return HotspotSettings(network: try! WiFiNetwork(name: name, passphrase: passphrase))
    }

    /// The settings file's text.
    public var fileText: String {
        """
        # HeyLook Booth's own Wi-Fi (booth hotspot on|off|status). Change the name or passphrase here, then run
        # 'sudo booth hotspot on' again and print a new card ('booth card').
        # security: "wpa2" (every phone joins) or "wpa3" (WPA3 alone: phones of about 2019 on; see
        # docs/configuration.md).
        [hotspot]
        name = \(Self.quoted(network.name))
        passphrase = \(Self.quoted(network.passphrase))
        security = \(Self.quoted(security.rawValue))

        """
    }

    /// NetworkManager's keyfile profile for the access point on `interface`: WPA2 or WPA3 (`security`; RSN, CCMP),
    /// shared mode (DHCP and DNS for the phones) at `address`/24, no IPv6, started at every boot until
    /// `booth hotspot off`, and tried again for as long as it fails to start (`autoconnect-retries=0`: NetworkManager
    /// otherwise gives up after 4 tries for 5 minutes, as on a slow boot where the radio's supplicant times out).
    public func profile(interface: String) -> String {
        // The SSID as its bytes (`ssid=72;101;…;`), NetworkManager's form for any SSID: nothing to escape.
        let ssid = network.name.utf8.map { "\($0);" }.joined()
        return """
            [connection]
            id=\(Self.profileID)
            uuid=\(Self.profileUUID)
            type=wifi
            interface-name=\(interface)
            autoconnect=true
            autoconnect-priority=100
            autoconnect-retries=0

            [wifi]
            mode=ap
            band=bg
            ssid=\(ssid)

            [wifi-security]
            key-mgmt=\(security.keyManagement.keyMgmt)
            proto=rsn
            pairwise=ccmp
            group=ccmp
            pmf=\(security.keyManagement.pmf)
            psk=\(Self.keyfileEscaped(network.passphrase))

            [ipv4]
            method=shared
            address1=\(Self.address)/24

            [ipv6]
            method=disabled

            """
    }

    /// The shared mode's DNS rule: every name is the booth.
    public static let dnsRule = """
        # HeyLook Booth's own Wi-Fi: every name is the booth, so a phone that joins opens the gallery by itself
        # (made by 'booth hotspot on', removed by 'booth hotspot off').
        address=/#/\(address)

        """

    /// `text` as a GKeyFile string value: a backslash doubled, spaces as `\s` (never trimmed).
    static func keyfileEscaped(_ text: String) -> String { escaped(text, ["\\": "\\\\", " ": "\\s"]) }

    /// `text` as a TOML basic string.
    static func quoted(_ text: String) -> String { "\"" + escaped(text, ["\\": "\\\\", "\"": "\\\""]) + "\"" }

    /// `text` with each character in `replacements` replaced.
    private static func escaped(_ text: String, _ replacements: [Character: String]) -> String {
        text.reduce(into: "") { out, character in out += replacements[character] ?? String(character) }
    }
}
