// GalleryConfigTests: the gallery's settings file, read and refused with the line and the fix.
import Testing

@testable import GalleryCore

@Suite struct GalleryConfigTests {
    @Test func theCodeAndPortAreRead() throws {
        let config = try GalleryConfig(parsing: "# made at install\n[gallery]\ncode = \"K7PQ2M\"\nport = 8081\n")
        #expect(config == GalleryConfig(code: "K7PQ2M", port: 8081))
        #expect(try GalleryConfig(parsing: "") == GalleryConfig())
    }

    @Test(arguments: [
        ("[gallery]\ncode = 12\n", "line 2: 'gallery.code' must be a string"),
        ("[gallery]\ncode = \"a b\"\n", "line 2: 'gallery.code': 'a b' is not allowed"),
        ("[gallery]\ncode = \"abc\"\n", "not allowed"),
        ("[gallery]\ncode = \"ÄBCD\"\n", "not allowed"),
        ("[gallery]\nport = 0\n", "line 2: 'gallery.port' must be a whole number from 1 to 65535"),
        ("[gallery]\nprot = 80\n", "line 2: unknown key 'gallery.prot'; allowed in [gallery]: code, port"),
        ("[galery]\n", "line 1: unknown table [galery]"),
        ("[gallery]\ncode = \"K7\n", "line 2"),
    ])
    func aWrongFileNamesTheLineAndTheFix(text: String, message: String) {
        #expect {
            try GalleryConfig(parsing: text)
        } throws: { error in
            "\(error)".hasPrefix("gallery config: ") && "\(error)".contains(message)
        }
    }
}
