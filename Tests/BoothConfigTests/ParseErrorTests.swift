// ParseErrorTests: the one parse error reads the same for the config, a settings file, a script and TOML itself.
import Testing

@testable import BoothConfig

@Suite struct ParseErrorTests {
    @Test func eachPartPresentIsNamedInOrder() {
        #expect(
            "\(ParseError(file: "config", line: 3, key: "sound.volume", message: "out of range"))"
                == "config: line 3: 'sound.volume': out of range")
        #expect("\(ParseError(file: "config", line: nil, message: "no favourites"))" == "config: no favourites")
        #expect(
            "\(ParseError(file: "script", line: 2, text: "presss", message: "unknown command"))"
                == "script: line 2: 'presss': unknown command")
        #expect("\(ParseError(line: 7, message: "string not closed"))" == "line 7: string not closed")
    }

    /// TOML's own error, found by the file's reader, is named as that file's, line and words kept.
    @Test func tomlsOwnErrorIsNamedForItsFile() {
        do {
            _ = try TOMLDocument(parsing: "[gallery]\ncode = \"abc\n")
            Issue.record("expected an error")
        } catch {
            #expect(error.file == nil)
            let named = error.inFile("gallery config")
            #expect(named.line == 2 && named.message == error.message)
            #expect("\(named)" == "gallery config: line 2: \(error.message)")
        }
    }
}
