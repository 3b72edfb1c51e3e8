// WiFiNetworkTests: the WIFI: text's escapes and the WPA limits on a network's name and passphrase.
import Testing

@testable import GalleryCore

@Suite struct WiFiNetworkTests {
    @Test func thePlainTextIsTheFormatPhonesRead() throws {
        let network = try WiFiNetwork(name: "HeyLook-7Q2M", passphrase: "duck-apple-rain")
        #expect(network.joinText == "WIFI:T:WPA;S:HeyLook-7Q2M;P:duck-apple-rain;;")
    }

    @Test func everyReservedCharacterIsEscapedWithABackslash() throws {
        let network = try WiFiNetwork(name: #"a;b,c:d\e"f"#, passphrase: #"p;a,s:s\w"ord"#)
        #expect(network.joinText == #"WIFI:T:WPA;S:a\;b\,c\:d\\e\"f;P:p\;a\,s\:s\\w\"ord;;"#)
    }

    @Test(arguments: [
        ("", "long-enough", "1...32 bytes"),
        (String(repeating: "x", count: 33), "long-enough", "1...32 bytes"),
        ("ok", "short", "8...63 characters"),
        ("ok", String(repeating: "p", count: 64), "8...63 characters"),
        ("ok", "päss-word", "printable ASCII"),
        ("ok", "tab\there!", "printable ASCII"),
    ])
    func aNetworkNoAccessPointCanHaveIsRefusedWithTheRule(name: String, passphrase: String, rule: String) {
        #expect(throws: WiFiNetwork.Invalid.self) { try WiFiNetwork(name: name, passphrase: passphrase) }
        #expect(WiFiNetwork.problem(name: name, passphrase: passphrase)?.contains(rule) == true)
    }

    @Test func theLimitsThemselvesAreAllowed() {
        #expect(WiFiNetwork.problem(name: String(repeating: "é", count: 16), passphrase: "12345678") == nil)
        #expect(WiFiNetwork.problem(name: "x", passphrase: String(repeating: "~", count: 63)) == nil)
    }
}
