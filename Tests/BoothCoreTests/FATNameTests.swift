// FATNameTests: our photo names are FAT-safe; names FAT refuses are recognised.
import Testing

@testable import BoothCore
@testable import PhotoModel

@Test func photoNamesAreFATSafe() {
    let name = PhotoName(dateTime: .init(year: 2026, month: 11, day: 22, hour: 14, minute: 3, second: 7), sequence: 42)
    #expect(FATName.isSafe(name.fileName))
    #expect(FATName.isSafe(name.temporaryFileName))
    #expect(FATName.isSafe(name.folder))
    #expect(FATName.isSafe(ExportPlan.alternativeName(name.fileName, booth: "0123456789abcdef", attempt: 3)))
    #expect(FATName.isSafe("manifest.txt"))
    #expect(FATName.isSafe("HeyLook"))
}

@Test func namesFATRefusesAreUnsafe() {
    for bad in [
        "", ".", "..", "a:b", "a?b", "a*b", "a\\b", "a/b", "a|b", "a<b", "a>b", "a\"b", "end.", "end ",
        "CON", "con.txt", "LPT1.jpg", "tab\there", String(repeating: "x", count: 256),
    ] {
        #expect(!FATName.isSafe(bad), "\(bad)")
    }
}
