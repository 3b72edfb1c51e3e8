// SHA256: the SHA-256 hash (FIPS 180-4), for what counts as a verified copy of a photo on a stick.
import CCrypto

/// A running SHA-256, computed by OpenSSL's libcrypto (EVP: the CPU's SHA instructions where it has them). Feed
/// bytes with `update`, read the 32-byte hash with `finish`. Unlike a CRC-32, no one can make other bytes with the
/// same hash, so a stick cannot claim a copy it does not hold. Not copyable: it owns libcrypto's context.
public struct SHA256: ~Copyable {
    private let context: OpaquePointer

    /// An empty hash.
    public init() {
        // Only a failed allocation or a libcrypto without SHA-256 fails here, neither of which a booth can run on.
        guard let context = EVP_MD_CTX_new(), EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else {
            fatalError("libcrypto cannot make a SHA-256 context")
        }
        self.context = context
    }

    deinit { EVP_MD_CTX_free(context) }

    /// The hash of `bytes`.
    public static func hash(_ bytes: [UInt8]) -> [UInt8] {
        var sha = SHA256()
        bytes.withUnsafeBytes { sha.update($0) }
        return sha.finish()
    }

    /// Adds the bytes in `buffer`.
    public mutating func update(_ buffer: UnsafeRawBufferPointer) {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return }
        precondition(EVP_DigestUpdate(context, base, buffer.count) == 1, "libcrypto's SHA-256 update failed")
    }

    /// The hash of everything added so far (the running hash goes on from there).
    public func finish() -> [UInt8] {
        let copy = SHA256()
        precondition(EVP_MD_CTX_copy_ex(copy.context, context) == 1, "libcrypto cannot copy a SHA-256 context")
        var hash = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        precondition(EVP_DigestFinal_ex(copy.context, &hash, &length) == 1 && length == 32)
        return hash
    }

    /// `hash` as 64 lowercase hex digits.
    public static func hex(_ hash: [UInt8]) -> String {
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        return String(decoding: hash.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] }, as: UTF8.self)
    }

    /// A hash written by `hex`, or nil.
    public static func parseHex(_ text: some StringProtocol) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count == 64 else { return nil }
        var hash: [UInt8] = []
        hash.reserveCapacity(32)
        for i in stride(from: 0, to: 64, by: 2) {
            guard let high = nibble(utf8[i]), let low = nibble(utf8[i + 1]) else { return nil }
            hash.append(high << 4 | low)
        }
        return hash
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x30...0x39: c - 0x30
        case 0x61...0x66: c - 0x61 + 10
        default: nil
        }
    }
}
