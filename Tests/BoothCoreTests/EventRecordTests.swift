// EventRecordTests: events read back from the events file, odd lines skipped.
import Testing

@testable import BoothCore

@Suite struct EventRecordTests {
    @Test func readsWhatTheBoothWrites() throws {
        let record = try #require(
            EventRecord(line: #"{"t_us":1234,"type":"photoSaved","path":"/p/a \"b\".jpg","bytes":-5,"ok":true}"#))
        #expect(record.type == "photoSaved")
        #expect(record.time == 1234)
        #expect(record.string("path") == "/p/a \"b\".jpg")
        #expect(record.int("bytes") == -5)
        #expect(record.fields["ok"] == .bool(true))
    }

    @Test func escapesRoundTrip() throws {
        let text = "tab\there\nnew \\ \"q\" \u{1} é 😀"
        let record = EventRecord(fields: ["type": .string("error"), "message": .string(text), "t_us": .int(7)])
        #expect(record.line.hasPrefix(#"{"t_us":7,"type":"error","#))
        #expect(EventRecord(line: Substring(record.line)) == record)
        #expect(EventRecord(line: #"{"s":"\u00e9\/"}"#)?.string("s") == "é/")
    }

    @Test(arguments: [
        #"{"t_us":12,"type":"sta"#,  // cut by a power failure
        #"{"t_us":12,"type":"state"} trailing"#, #"{"a":{"b":1}}"#, #"{"a":[1]}"#, #"{"a":1.5}"#,
        #"{"a":99999999999999999999}"#, #"{"a":-}"#, #"{"a":"x\qy"}"#, #"{"a":"\u12"}"#, #"{"a":"\u+123"}"#,
        "{\"a\":\"new\nline\"}", #"{"a" "b"}"#, #"{"a":tru}"#, "", "[]", #"{"a":1,}"#,
    ])
    func rejectsWhatIsNotARecord(line: String) {
        #expect(EventRecord(line: Substring(line)) == nil)
    }

    @Test func theExtremesOfInt64Read() {
        #expect(EventRecord(line: #"{"a":-9223372036854775808}"#)?.int("a") == Int64.min)
        #expect(EventRecord(line: #"{"a":9223372036854775807}"#)?.int("a") == Int64.max)
        #expect(EventRecord(line: #"{"a":9223372036854775808}"#) == nil)
    }
}
