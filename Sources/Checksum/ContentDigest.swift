// ContentDigest: a file's size, CRC-32 and SHA-256, summed in one pass as its bytes go by.

/// What a copy is checked against: the size, the CRC-32 (what the index and ZIPs record) and the SHA-256 (what a
/// stick's manifest records, and what makes a copy count as verified: a CRC-32 can be forged, a SHA-256 cannot).
public struct ContentDigest: Hashable, Sendable {
    /// Bytes.
    public var size: Int64
    /// Their CRC-32.
    public var crc32: UInt32
    /// Their SHA-256 (32 bytes).
    public var sha256: [UInt8]

    /// A digest.
    public init(size: Int64, crc32: UInt32, sha256: [UInt8]) {
        (self.size, self.crc32, self.sha256) = (size, crc32, sha256)
    }

    /// The digest of `bytes`.
    public init(of bytes: [UInt8]) {
        var summer = Summer()
        summer.update(bytes)
        self = summer.digest
    }

    /// Sums bytes as they go by (not copyable: it owns a SHA-256 context).
    public struct Summer: ~Copyable {
        private var size: Int64 = 0
        private var crc = CRC32()
        private var sha = SHA256()

        /// Nothing summed yet.
        public init() {}

        /// Adds the bytes in `buffer`.
        public mutating func update(_ buffer: UnsafeRawBufferPointer) {
            crc.update(buffer)
            sha.update(buffer)
            size += Int64(buffer.count)
        }

        /// Adds `bytes`.
        public mutating func update(_ bytes: [UInt8]) {
            bytes.withUnsafeBytes { update($0) }
        }

        /// The digest of everything added.
        public var digest: ContentDigest { ContentDigest(size: size, crc32: crc.value, sha256: sha.finish()) }
    }
}
