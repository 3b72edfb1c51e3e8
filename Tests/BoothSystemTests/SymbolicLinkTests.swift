// SymbolicLinkTests: a link's target, and none for a file or nothing.
import BoothSystem
import BoothTestSupport
import Glibc
import Testing

@Suite struct SymbolicLinkTests {
    @Test func aLinksTargetIsReadAndAFileHasNone() throws {
        let directory = temporaryDirectory()
        #expect(symlink("/dev/video0", "\(directory)/3") == 0)
        #expect(SymbolicLink.target(at: "\(directory)/3") == "/dev/video0")
        try DurableFile().write([1], path: "\(directory)/file")
        #expect(SymbolicLink.target(at: "\(directory)/file") == nil)
        #expect(SymbolicLink.target(at: "\(directory)/none") == nil)
    }
}
