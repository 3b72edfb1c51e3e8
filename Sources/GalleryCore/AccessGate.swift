// AccessGate: the event's access code, and the cookie a guest gets for entering it.
/// The event's access code and the cookie a guest's browser gets for entering it. The cookie's value is a random
/// token made when the gallery starts (`token`), so it says nothing about the code, and a new code (which needs a
/// restart) makes every old cookie worthless.
public struct AccessGate: Sendable {
    /// The cookie's name.
    public static let cookieName = "heylook"
    /// The code guests type, as configured.
    public let code: String
    /// The cookie value that proves the code was entered.
    public let token: String

    /// A gate for `code` with `token` (the server passes random bytes as hex).
    public init(code: String, token: String) {
        self.code = code
        self.token = token
    }

    /// Whether `typed` is the code: case, spaces and dashes do not matter (a code read off a card), compared in
    /// time independent of where they differ.
    public func accepts(_ typed: String) -> Bool { Self.equal(Self.normalized(typed), Self.normalized(code)) }

    /// Whether a cookie's value is the token.
    public func admits(cookie: String?) -> Bool { cookie.map { Self.equal($0, token) } ?? false }

    /// A code as compared: upper case, without spaces and dashes.
    static func normalized(_ code: String) -> String {
        String(code.uppercased().filter { $0 != " " && $0 != "-" })
    }

    private static func equal(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        var difference = UInt8(x.count == y.count ? 0 : 1)
        for i in 0..<min(x.count, y.count) { difference |= x[i] ^ y[i] }
        return difference == 0
    }
}

extension AccessGate {
    /// The value of `field` in an `application/x-www-form-urlencoded` body (`code=AB+12%2D3`), decoded; nil when
    /// the body has no such field or is not valid UTF-8 after decoding.
    public static func formValue(_ field: String, in body: [UInt8]) -> String? {
        for pair in body.split(separator: UInt8(ascii: "&")) {
            let parts = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, let key = decoded(parts[0]), key == field else { continue }
            return decoded(parts[1])
        }
        return nil
    }

    private static func decoded(_ bytes: ArraySlice<UInt8>) -> String? {
        var out: [UInt8] = []
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let b = bytes[i]
            if b == UInt8(ascii: "+") {
                out.append(UInt8(ascii: " "))
            } else if b == UInt8(ascii: "%") {
                guard i + 2 < bytes.endIndex,
                    let value = UInt8(String(decoding: bytes[(i + 1)...(i + 2)], as: UTF8.self), radix: 16)
                else { return nil }
                out.append(value)
                i += 2
            } else {
                out.append(b)
            }
            i += 1
        }
        return String(validating: out, as: UTF8.self)
    }
}
