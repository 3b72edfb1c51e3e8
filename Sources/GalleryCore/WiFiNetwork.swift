// WiFiNetwork: a Wi-Fi network's name and passphrase, and the text of the QR code that joins it.
/// A WPA network a phone joins by scanning the card: its name (SSID) and passphrase, checked as WPA2/WPA3 require.
public struct WiFiNetwork: Hashable, Sendable {
    /// The network's name.
    public let name: String
    /// The WPA passphrase.
    public let passphrase: String

    /// Why a name and passphrase cannot be a WPA network.
    public struct Invalid: Error, CustomStringConvertible, Equatable {
        /// What is wrong and what is allowed.
        public let description: String
    }

    /// The network `name` with `passphrase`; throws when either is not one a WPA access point can have.
    public init(name: String, passphrase: String) throws(Invalid) {
        if let problem = Self.problem(name: name, passphrase: passphrase) { throw Invalid(description: problem) }
        self.name = name
        self.passphrase = passphrase
    }

    /// Why `name` and `passphrase` cannot be a WPA network, or nil.
    public static func problem(name: String, passphrase: String) -> String? {
        if name.utf8.isEmpty || name.utf8.count > 32 {
            return "a Wi-Fi name must be 1...32 bytes (\"\(name)\" is \(name.utf8.count))"
        }
        if passphrase.count < 8 || passphrase.count > 63 {
            return "a WPA passphrase must be 8...63 characters (this one has \(passphrase.count))"
        }
        if !passphrase.unicodeScalars.allSatisfy({ (0x20...0x7E).contains($0.value) }) {
            return "a WPA passphrase may hold only printable ASCII characters (letters, digits, punctuation, space)"
        }
        return nil
    }

    /// The text phones' cameras read as "join this network": `WIFI:T:WPA;S:name;P:passphrase;;`, with `\`, `;`,
    /// `,`, `:` and `"` escaped by a backslash.
    public var joinText: String { "WIFI:T:WPA;S:\(Self.escaped(name));P:\(Self.escaped(passphrase));;" }

    /// `text` with the characters the WIFI format reserves escaped.
    static func escaped(_ text: String) -> String {
        var out = ""
        for character in text {
            if "\\;,:\"".contains(character) { out.append("\\") }
            out.append(character)
        }
        return out
    }
}
