// DNSQuery: a DNS question for one name's IPv4 addresses, and the addresses an answer to it gives.

/// A standard query (RFC 1035) for the A records of one name, and the IPv4 addresses in an answer to it: how
/// `booth hotspot` asks the hotspot's own name server whether phones will be answered. Reading an answer never traps:
/// anything short, truncated or not an answer to this query reads as nil.
public struct DNSQuery: Hashable, Sendable {
    /// The query's id, echoed by the answer.
    public var id: UInt16
    /// The name asked for, without the final dot.
    public var name: String

    /// A query for `name` with `id`; nil when `name` is no DNS name (an empty label, a label over 63 bytes, over
    /// 253 bytes in all).
    public init?(id: UInt16, name: String) {
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        guard !name.isEmpty, name.utf8.count <= 253, labels.allSatisfy({ (1...63).contains($0.utf8.count) }) else {
            return nil
        }
        (self.id, self.name) = (id, name)
    }

    /// The query's bytes: header (recursion desired, one question), the name's labels, type A, class IN.
    public var bytes: [UInt8] {
        var bytes: [UInt8] = [UInt8(id >> 8), UInt8(id & 0xFF), 0x01, 0x00, 0, 1, 0, 0, 0, 0, 0, 0]
        for label in name.split(separator: ".") {
            bytes.append(UInt8(label.utf8.count))
            bytes += label.utf8
        }
        bytes += [0, 0, Self.typeA, 0, Self.classIN]
        return bytes
    }

    /// The IPv4 addresses (dotted) of the A records in `answer`, in order: empty when the server answered with an
    /// error or no address; nil when `answer` is not a well-formed answer to this query.
    public func addresses(in answer: [UInt8]) -> [String]? {
        guard answer.count >= 12, UInt16(answer[0]) << 8 | UInt16(answer[1]) == id, answer[2] & 0x80 != 0 else {
            return nil
        }
        let questions = Int(answer[4]) << 8 | Int(answer[5])
        let records = Int(answer[6]) << 8 | Int(answer[7])
        guard answer[3] & 0x0F == 0 else { return [] }
        var offset = 12
        for _ in 0..<questions {
            guard let end = Self.skipName(answer, from: offset), end + 4 <= answer.count else { return nil }
            offset = end + 4
        }
        var addresses: [String] = []
        for _ in 0..<records {
            guard let end = Self.skipName(answer, from: offset), end + 10 <= answer.count else { return nil }
            let type = UInt16(answer[end]) << 8 | UInt16(answer[end + 1])
            let recordClass = UInt16(answer[end + 2]) << 8 | UInt16(answer[end + 3])
            let length = Int(answer[end + 8]) << 8 | Int(answer[end + 9])
            let data = end + 10
            guard data + length <= answer.count else { return nil }
            if type == UInt16(Self.typeA), recordClass == UInt16(Self.classIN), length == 4 {
                addresses.append(answer[data..<data + 4].map(String.init).joined(separator: "."))
            }
            offset = data + length
        }
        return addresses
    }

    private static let typeA: UInt8 = 1
    private static let classIN: UInt8 = 1

    /// Where the name at `offset` ends: after its last label's zero, or after a compression pointer; nil when it
    /// runs past the end or uses a reserved label type.
    private static func skipName(_ bytes: [UInt8], from offset: Int) -> Int? {
        var offset = offset
        while offset < bytes.count {
            let length = bytes[offset]
            switch length & 0xC0 {
            case 0xC0: return offset + 2 <= bytes.count ? offset + 2 : nil
            case 0x00:
                if length == 0 { return offset + 1 }
                offset += 1 + Int(length)
            default: return nil
            }
        }
        return nil
    }
}
