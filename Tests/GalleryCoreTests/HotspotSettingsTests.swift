// HotspotSettingsTests: the hotspot's settings file, the NetworkManager profile and the DNS rule made of it.
import Testing

@testable import GalleryCore

@Suite struct HotspotSettingsTests {
    @Test func theFileReadsBackAsWritten() throws {
        let network = try WiFiNetwork(name: #"Party;Wi,Fi:\"A""#, passphrase: #"p;a,s:s\w"o rd"#)
        for security in HotspotSettings.Security.allCases {
            let settings = HotspotSettings(network: network, security: security)
            #expect(try HotspotSettings(parsing: settings.fileText) == settings)
        }
    }

    @Test func aFileWithoutSecurityOffersWPA2() throws {
        let settings = try HotspotSettings(parsing: "[hotspot]\nname = \"x\"\npassphrase = \"12345678\"\n")
        #expect(settings.security == .wpa2)
    }

    /// WPA2 with management frame protection off (NetworkManager then offers no SAE it could not protect); WPA3 as
    /// SAE with it required.
    @Test(arguments: [
        (HotspotSettings.Security.wpa2, ["key-mgmt=wpa-psk", "pmf=1"]), (.wpa3, ["key-mgmt=sae", "pmf=3"]),
    ])
    func securityIsTheProfilesKeyManagementAndFrameProtection(
        security: HotspotSettings.Security, expected: [String]
    ) throws {
        let settings = HotspotSettings(network: try WiFiNetwork(name: "x", passphrase: "12345678"), security: security)
        let lines = settings.profile(interface: "wlan0").split(separator: "\n").map(String.init)
        for line in expected { #expect(lines.contains(line), "\(line)") }
        #expect(lines.filter { $0.hasPrefix("pmf=") || $0.hasPrefix("key-mgmt=") }.count == 2)
    }

    @Test func theProfileIsASharedWPA2AccessPointWithTheSSIDAsBytes() throws {
        let settings = HotspotSettings(network: try WiFiNetwork(name: "Hi;", passphrase: #"a b\c;d,e"#))
        let lines = settings.profile(interface: "wlan0").split(separator: "\n").map(String.init)
        for expected in [
            "uuid=\(HotspotSettings.profileUUID)", "interface-name=wlan0", "mode=ap", "ssid=72;105;59;",
            "key-mgmt=wpa-psk", "proto=rsn", #"psk=a\sb\\c;d,e"#, "method=shared", "address1=10.42.0.1/24",
            "autoconnect=true",
            "autoconnect-retries=0",
        ] {
            #expect(lines.contains(expected), "\(expected)")
        }
    }

    @Test func theDNSRuleAnswersEveryNameWithTheBooth() {
        #expect(HotspotSettings.dnsRule.split(separator: "\n").contains("address=/#/10.42.0.1"))
    }

    @Test(arguments: [
        ("[hotspot]\nname = \"x\"\n", "needs both name and passphrase"),
        ("[hotspot]\nname = \"x\"\npassphrase = \"short\"\n", "8...63 characters"),
        ("[hotspot]\nname = \"x\"\npassphrase = 12345678\n", "must be a string"),
        ("[hotspot]\nssid = \"x\"\n", "unknown key 'hotspot.ssid'"),
        (
            "[hotspot]\nname = \"x\"\npassphrase = \"12345678\"\nsecurity = \"wpa2-wpa3\"\n",
            #"must be "wpa2" or "wpa3""#
        ),
        ("[hotspot]\nname = \"x\"\npassphrase = \"12345678\"\nsecurity = 3\n", "must be a string"),
        ("[wifi]\nname = \"x\"\n", "unknown table [wifi]"),
    ])
    func aBadFileNamesTheProblem(text: String, problem: String) {
        #expect {
            try HotspotSettings(parsing: text)
        } throws: { error in
            "\(error)".contains(problem)
        }
    }
}
