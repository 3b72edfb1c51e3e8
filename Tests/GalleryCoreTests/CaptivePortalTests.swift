// CaptivePortalTests: which requests the gallery redirects to itself as a captive portal, and which it serves.
import Testing

@testable import GalleryCore

@Suite struct CaptivePortalTests {
    let portal = CaptivePortal(hostname: "Booth")

    @Test(arguments: [
        "captive.apple.com", "connectivitycheck.gstatic.com", "www.msftconnecttest.com", "example.com:80",
        "clients3.google.com.", "booth.example", "10.42.0.1.nip.io",
    ])
    func aRequestForAnotherSiteGoesToTheGalleryAtTheAddressItCameIn(host: String) {
        #expect(portal.redirect(host: host, localAddress: "10.42.0.1", localPort: 80) == "http://10.42.0.1/")
        #expect(portal.redirect(host: host, localAddress: "127.0.0.1", localPort: 8080) == "http://127.0.0.1:8080/")
        #expect(portal.redirect(host: host, localAddress: "fe80::1", localPort: 80) == "http://[fe80::1]/")
        // systemd's socket is dual-stack: an IPv4 phone's connection arrives on an IPv4-mapped address.
        #expect(portal.redirect(host: host, localAddress: "::ffff:10.42.0.1", localPort: 80) == "http://10.42.0.1/")
    }

    @Test func anIPv4MappedAddressReadsAsIPv4() {
        #expect(CaptivePortal.unmapped("::ffff:10.42.0.57") == "10.42.0.57")
        #expect(CaptivePortal.unmapped("::FFFF:192.168.1.2") == "192.168.1.2")
        for address in ["10.42.0.57", "::1", "fe80::1", "::ffff:", "::ffff:fe80::1", ""] {
            #expect(CaptivePortal.unmapped(address) == address)
        }
    }

    @Test(arguments: [
        nil, "", "booth", "BOOTH", "booth.local", "booth.local:8080", "heylook.local.", "localhost:8080", "10.42.0.1",
        "192.168.1.20:80", "[::1]:8080", "[fe80::1%25wlan0]",
    ])
    func aRequestForTheBoothIsServed(host: String?) {
        #expect(portal.redirect(host: host, localAddress: "10.42.0.1", localPort: 80) == nil)
    }

    @Test func aNameThatOnlyLooksLikeAnAddressIsAnotherSite() {
        #expect(CaptivePortal.isAddress("10.42.0.1"))
        #expect(!CaptivePortal.isAddress("10.42.0"))
        #expect(!CaptivePortal.isAddress("1000.42.0.1"))
        #expect(!CaptivePortal.isAddress("a.b.c.d"))
    }
}
