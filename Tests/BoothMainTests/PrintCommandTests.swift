// PrintCommandTests: `booth print count|reset` on a ledger that is missing, kept, or cannot be written.
import BoothTestSupport
import Foundation
import Testing

@Suite(.offCooperativePool)
struct PrintCommandTests {
    /// A config whose state file (so print ledger) is in `folder`, with a limit per event of 5.
    private func config(in folder: String) throws -> [String] {
        try
            "[booth]\nstate_file = \"\(folder)/state.toml\"\nphotos_dir = \"\(folder)/photos\"\n[print]\nlimit_per_event = 5\n"
            .write(toFile: folder + "/booth.toml", atomically: true, encoding: .utf8)
        return ["--config", folder + "/booth.toml"]
    }

    @Test func aResetWithNoPrintsYetChangesNothingAndSaysSo() throws {
        let folder = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try runBooth(["print", "reset"] + config(in: folder))
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.contains("no prints counted yet"), "\(run.output)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/prints.txt"), "the booth's user makes it, not root")
    }

    @Test func theCountReadsTheLedgerAndAResetKeepsItsHistory() throws {
        let folder = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let arguments = try config(in: folder)
        try "a.jpg\nb.jpg\na.jpg\n".write(toFile: folder + "/prints.txt", atomically: true, encoding: .utf8)
        let count = try runBooth(["print", "count"] + arguments)
        #expect(count.output.contains("this event: 3 prints (limit 5)"), "\(count.output)")
        #expect(count.output.contains("most printed photo: a.jpg, 2 times (per photo: no limit)"), "\(count.output)")
        let reset = try runBooth(["print", "reset"] + arguments)
        #expect(reset.output.contains("3 prints in the event before"), "\(reset.output)")
        #expect(
            try String(contentsOfFile: folder + "/prints.txt", encoding: .utf8) == "a.jpg\nb.jpg\na.jpg\n-- reset\n")
        #expect(try runBooth(["print", "count"] + arguments).output.contains("this event: 0 prints"))
    }

    @Test func aLedgerThatCannotBeWrittenIsNamedWithTheFixAndLeftAsItIs() throws {
        let folder = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let arguments = try config(in: folder)
        // A folder where the file should be: unreadable and unwritable, even for root.
        try FileManager.default.createDirectory(atPath: folder + "/prints.txt", withIntermediateDirectories: false)
        let reset = try runBooth(["print", "reset"] + arguments)
        #expect(reset.status != 0)
        #expect(reset.errors.contains("prints.txt"), "\(reset.errors)")
        let count = try runBooth(["print", "count"] + arguments)
        #expect(count.status != 0)
        #expect(count.errors.contains("prints.txt"), "\(count.errors)")
        var isFolder: ObjCBool = false
        #expect(
            FileManager.default.fileExists(atPath: folder + "/prints.txt", isDirectory: &isFolder) && isFolder.boolValue
        )
    }
}
