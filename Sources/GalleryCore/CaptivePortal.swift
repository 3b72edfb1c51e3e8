// CaptivePortal: which requests are meant for another site, and where the gallery sends them instead.
/// On the booth's own Wi-Fi every name resolves to the booth, so a phone that joins asks the booth for its operating
/// system's connectivity check (Apple's `captive.apple.com/hotspot-detect.html`, Android's `…/generate_204`,
/// Windows' `www.msftconnecttest.com/connecttest.txt`) and for any site a guest types. A request whose `Host` is not
/// one of the booth's names gets a redirect to the gallery at the address it came in on: the phone sees a
/// sign-in page (the check did not get its expected answer) and opens the gallery's code page by itself. On any
/// other network only requests for the booth reach it, so nothing changes there.
public struct CaptivePortal: Sendable, Equatable {
    /// This machine's host name (`booth`), which also answers as `booth.local`.
    public let hostname: String

    /// The rule for a booth named `hostname`.
    public init(hostname: String) { self.hostname = hostname.lowercased() }

    /// Where to send a request for `host` (its `Host` header, with or without a port) that came in on
    /// `localAddress`:`localPort`, or nil to serve it: no host (HTTP/1.0), an address, `localhost`, the booth's
    /// name or any `.local` name (mDNS only ever resolves to the booth here).
    public func redirect(host: String?, localAddress: String, localPort: Int) -> String? {
        guard let host, !host.isEmpty, !host.hasPrefix("[") else { return nil }  // No host, or an IPv6 literal.
        let name = Self.name(of: host).lowercased()
        if name.isEmpty || name == "localhost" || name == hostname || name.hasSuffix(".local")
            || Self.isAddress(name)
        {
            return nil
        }
        var address = Self.unmapped(localAddress)
        if address.contains(":") { address = "[\(address)]" }
        return localPort == 80 ? "http://\(address)/" : "http://\(address):\(localPort)/"
    }

    /// `address` as a person reads it: a dual-stack socket (systemd's port 80) sees an IPv4 connection as IPv4-mapped
    /// IPv6 (`::ffff:10.42.0.57`), which is the IPv4 address (`10.42.0.57`); any other address as it is.
    public static func unmapped(_ address: String) -> String {
        guard address.lowercased().hasPrefix("::ffff:"), isAddress(String(address.dropFirst(7))) else { return address }
        return String(address.dropFirst(7))
    }

    /// `host` (not an IPv6 literal) without its port: `booth.local:80` → `booth.local`, a trailing dot dropped.
    static func name(of host: String) -> String {
        var name = Substring(host)
        if let colon = name.lastIndex(of: ":") { name = name[..<colon] }
        if name.hasSuffix(".") { name = name.dropLast() }
        return String(name)
    }

    /// Whether `name` is an IPv4 address in dotted form.
    static func isAddress(_ name: String) -> Bool {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4
            && parts.allSatisfy { part in (1...3).contains(part.count) && part.allSatisfy(\.isNumber) }
    }
}
