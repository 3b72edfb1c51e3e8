// HotspotSettingsTests: the hotspot's settings file, the NetworkManager profile and the DNS rule made of it.
import Testing

@testable import GalleryCore

@Suite struct HotspotSettingsTests {
    @Test func theFileReadsBackAsWritten() throws {
        let network = try WiFiNetwork(name: #"Party;Wi,Fi:\"A""#, passphrase: #"p;a,s:s\w"o rd"#)
        let settings = HotspotSettings(network: network)
        #expect(try HotspotSettings(parsing: settings.fileText) == settings)
    }

    @Test func generatedSettingsAreAValidNetworkNamedHeyLook() throws {
        var random = SystemRandomNumberGenerator()
        let first = HotspotSettings.generated(using: &random)
        let second = HotspotSettings.generated(using: &random)
        #expect(first.network.name.hasPrefix("HeyLook-") && first.network.name.count == 12)
        #expect(first.network.passphrase.count == 14)
        #expect(WiFiNetwork.problem(name: first.network.name, passphrase: first.network.passphrase) == nil)
        #expect(!first.network.passphrase.contains { "0o1li".contains($0) })
        #expect(first.network.passphrase != second.network.passphrase)
        #expect(try HotspotSettings(parsing: first.fileText) == first)
    }

    @Test func theProfileIsASharedWPA2AccessPointWithTheSSIDAsBytes() throws {
        let settings = HotspotSettings(network: try WiFiNetwork(name: "Hi;", passphrase: #"a b\c;d,e"#))
        let lines = settings.profile(interface: "wlan0").split(separator: "\n").map(String.init)
        for expected in [
            "uuid=\(HotspotSettings.profileUUID)", "interface-name=wlan0", "mode=ap", "ssid=72;105;59;",
            "key-mgmt=wpa-psk", "proto=rsn", #"psk=a\sb\\c;d,e"#, "method=shared", "address1=10.42.0.1/24",
            "autoconnect=true",
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
