// FileSpan: a piece of a photo that a response sends by the kernel (sendfile), and the marker that stands for it.

/// A piece of a file that a response body sends without reading it. The body carries `marker(secret:)` in its
/// place, and the connection's `FileSpanSender` turns that marker into a file region the kernel copies straight from
/// the page cache to the socket (sendfile), so the bytes never pass through the gallery's memory. The file is named
/// by its path and the device and inode it had when the response was planned: a file replaced since is not sent.
///
/// A marker begins with a secret the gallery draws when it starts (`randomSecret()`), so no bytes of a photo or of a
/// request can pass for one, and is exactly as long as its fields: anything else is ordinary body bytes.
public struct FileSpan: Hashable, Sendable {
    /// The file's path.
    public var path: String
    /// The device and inode the file had when the response was planned (`st_dev`, `st_ino`).
    public var device: UInt64
    public var inode: UInt64
    /// The first byte to send, and how many.
    public var offset: UInt64
    public var length: UInt64

    /// Bytes in a secret.
    public static let secretLength = 32

    public init(path: String, device: UInt64, inode: UInt64, offset: UInt64, length: UInt64) {
        (self.path, self.device, self.inode, self.offset, self.length) = (path, device, inode, offset, length)
    }

    /// A new secret from the system's random source.
    public static func randomSecret() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<secretLength).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    /// The body bytes that stand for this span: `secret`, the four numbers (little-endian), the path's length and the
    /// path in UTF-8.
    public func marker(secret: [UInt8]) -> [UInt8] {
        precondition(secret.count == Self.secretLength, "a FileSpan secret is \(Self.secretLength) bytes")
        let name = Array(path.utf8)
        var bytes = secret
        bytes.reserveCapacity(secret.count + 36 + name.count)
        for number in [device, inode, offset, length] { bytes.appendLE(number) }
        bytes.appendLE(UInt32(name.count))
        bytes += name
        return bytes
    }

    /// The span `bytes` stand for when they are a marker made with `secret`; nil for any other bytes.
    public init?(marker bytes: UnsafeRawBufferPointer, secret: [UInt8]) {
        let fixed = Self.secretLength + 36
        guard secret.count == Self.secretLength, bytes.count >= fixed,
            bytes.prefix(Self.secretLength).elementsEqual(secret)
        else { return nil }
        func number(_ at: Int) -> UInt64 {
            UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: Self.secretLength + at, as: UInt64.self))
        }
        let nameLength = Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: fixed - 4, as: UInt32.self)))
        guard bytes.count == fixed + nameLength, nameLength > 0,
            let path = String(validating: bytes[fixed...], as: UTF8.self)
        else { return nil }
        self.init(path: path, device: number(0), inode: number(8), offset: number(16), length: number(24))
    }
}
