// DNSQueryTests: the hotspot's name-server check builds RFC 1035 queries and reads answers without trusting them.
import Testing

@testable import GalleryCore

@Suite struct DNSQueryTests {
    @Test func aQueryIsTheHeaderTheLabelsTypeAAndClassIN() throws {
        let query = try #require(DNSQuery(id: 0x1234, name: "a.bc"))
        #expect(
            query.bytes == [
                0x12, 0x34, 0x01, 0x00, 0, 1, 0, 0, 0, 0, 0, 0,
                1, UInt8(ascii: "a"), 2, UInt8(ascii: "b"), UInt8(ascii: "c"), 0,
                0, 1, 0, 1,
            ])
    }

    @Test(arguments: [
        "", ".", "a..b", "a.", String(repeating: "x", count: 64),
        Array(repeating: "abc", count: 64).joined(separator: "."),
    ])
    func aNameThatIsNoDNSNameMakesNoQuery(name: String) {
        #expect(DNSQuery(id: 1, name: name) == nil)
    }

    /// An answer as dnsmasq sends it: the question echoed, then records naming it by a compression pointer.
    func answer(to query: DNSQuery, rcode: UInt8 = 0, records: [(type: UInt8, data: [UInt8])]) -> [UInt8] {
        var bytes = query.bytes
        bytes[2] = 0x81
        bytes[3] = 0x80 | rcode
        bytes[7] = UInt8(records.count)
        for record in records {
            bytes += [0xC0, 0x0C, 0, record.type, 0, 1, 0, 0, 0, 0, 0, UInt8(record.data.count)] + record.data
        }
        return bytes
    }

    @Test func theAddressesOfTheARecordsAreRead() throws {
        let query = try #require(DNSQuery(id: 0xBEEF, name: "connectivitycheck.gstatic.com"))
        let cname: [UInt8] = [3, UInt8(ascii: "w"), UInt8(ascii: "w"), UInt8(ascii: "w"), 0xC0, 0x0C]
        let reply = answer(to: query, records: [(5, cname), (1, [10, 42, 0, 1]), (1, [192, 168, 1, 2])])
        #expect(query.addresses(in: reply) == ["10.42.0.1", "192.168.1.2"])
    }

    @Test func anErrorAnswerHasNoAddress() throws {
        let query = try #require(DNSQuery(id: 7, name: "example.com"))
        #expect(query.addresses(in: answer(to: query, rcode: 3, records: [])) == [])  // NXDOMAIN
        #expect(query.addresses(in: answer(to: query, records: [])) == [])
    }

    @Test func anAnswerToAnotherQueryOrAQuestionIsNoAnswer() throws {
        let query = try #require(DNSQuery(id: 7, name: "example.com"))
        let other = try #require(DNSQuery(id: 8, name: "example.com"))
        #expect(query.addresses(in: answer(to: other, records: [(1, [10, 42, 0, 1])])) == nil)
        #expect(query.addresses(in: query.bytes) == nil)  // its own question echoed: not an answer
    }

    @Test func everyCutOfAnAnswerReadsAsNoAnswerWithoutTrapping() throws {
        let query = try #require(DNSQuery(id: 7, name: "example.com"))
        let whole = answer(to: query, records: [(1, [10, 42, 0, 1])])
        for length in 0..<whole.count {
            #expect(query.addresses(in: Array(whole.prefix(length))) == nil, "cut at \(length)")
        }
        var reserved = whole
        reserved[12] = 0x40  // a label type RFC 1035 reserves
        #expect(query.addresses(in: reserved) == nil)
    }
}
