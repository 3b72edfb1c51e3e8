// ExportCommandTests: what `booth export --to` says when the folder given cannot be used.
import BoothTestSupport
import Testing

@Suite struct ExportCommandTests {
    /// A folder that is not there is named with why, and nothing is exported. Mutation: saying "cannot read the file
    /// system of" for a failed open fails it.
    @Test func aMissingFolderIsNamedWithWhy() throws {
        let photos = temporaryDirectory()
        let missing = "\(temporaryDirectory())/no-stick-here"
        let run = try runBooth(["export", "--to", missing, "--photos", photos])
        #expect(run.status != 0)
        #expect(
            run.errors.contains("cannot open \(missing): No such file or directory (ENOENT)"), "\(run.errors)")
        #expect(readFile(missing) == nil)
    }
}
