// StickCopierTests: one file onto a stick: written and read back, adopted only when it is the photo, a taken name.
import BoothSystem
import BoothTestSupport
import Checksum
import Glibc
import PhotoStore
import Testing

@testable import BoothCore
@testable import USBSticks

@Suite struct StickCopierTests {
    /// A photo in a store folder and a date folder on a "stick", both open.
    private struct Setup {
        let photo: [UInt8] = (0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let sourcePath: String
        let source: FileDescriptor
        let folderPath: String
        let folder: FileDescriptor

        init() throws {
            let store = temporaryDirectory()
            sourcePath = "\(store)/photo.jpg"
            try DurableFile().write(photo, path: sourcePath)
            source = try #require(SystemFileOperations().open(sourcePath, O_RDONLY | O_CLOEXEC, 0))
            folderPath = "\(temporaryDirectory())/2026-12-07"
            try #require(mkdir(folderPath, 0o755) == 0)
            folder = try SystemFileOperations().openFolder(folderPath)
        }

        func item(named name: String) -> ExportPlan.Item {
            ExportPlan.Item(
                source: "photo.jpg", size: Int64(photo.count), folder: "2026-12-07", name: name, adopt: true)
        }

        /// The photo written into the folder as `name` by `copier`.
        func write(as name: String, with copier: StickCopier) throws -> StickCopier.Copy? {
            try copier.write(
                source, sourcePath: sourcePath, redated: nil, as: name, into: folder, folderPath: folderPath)
        }

        func close() {
            _ = SystemFileOperations().close(source)
            _ = SystemFileOperations().close(folder)
        }
    }

    /// A copy is written under its name with nothing temporary left, and its digest is the photo's; the same file
    /// is adopted, while another file, a link to the photo, or no file at all is not; each leaves the source at its
    /// start. Mutation: adopting on the size alone takes the other file of the same size.
    @Test func aCopyIsWrittenAndOnlyThePhotoItselfIsAdopted() throws {
        let setup = try Setup()
        defer { setup.close() }
        let copier = StickCopier(operations: SystemFileOperations())
        let written = try #require(try setup.write(as: "photo.jpg", with: copier))
        #expect(written.digest == ContentDigest(of: setup.photo) && written.photoChecksum == nil)
        #expect(try PhotoStore.fileNames(in: setup.folderPath) == ["photo.jpg"])
        #expect(
            readFile("\(setup.folderPath)/photo.jpg").map(ContentDigest.init(of:)) == ContentDigest(of: setup.photo))

        // A photo is opened for each file of the plan: at its start.
        #expect(lseek(setup.source.rawValue, 0, SEEK_SET) == 0)
        let adopted = try copier.adopt(
            setup.item(named: "photo.jpg"), source: setup.source, sourcePath: setup.sourcePath, redated: nil,
            folder: setup.folder, folderPath: setup.folderPath)
        #expect(adopted == written)
        #expect(lseek(setup.source.rawValue, 0, SEEK_CUR) == 0, "the source is left at its start")

        var other = setup.photo
        other[100] ^= 0xFF
        try DurableFile().write(other, path: "\(setup.folderPath)/other.jpg")
        #expect(symlink("\(setup.folderPath)/photo.jpg", "\(setup.folderPath)/link.jpg") == 0)
        for name in ["other.jpg", "link.jpg", "missing.jpg"] {
            let none = try copier.adopt(
                setup.item(named: name), source: setup.source, sourcePath: setup.sourcePath, redated: nil,
                folder: setup.folder, folderPath: setup.folderPath)
            #expect(none == nil, "\(name) is not adopted")
        }
    }

    /// Another file that took the name between the listing and the rename is no copy: nil, its file untouched, the
    /// temporary file gone and the source rewound, so the next name gets the whole photo. Mutation: not rewinding
    /// the source writes the next name empty.
    @Test func aNameTakenSinceTheListingIsNoCopyAndTheNextNameGetsThePhoto() throws {
        let setup = try Setup()
        defer { setup.close() }
        let faults = StickFaults(failing: "rename", at: 1, with: EEXIST)
        let taken = try setup.write(as: "photo.jpg", with: StickCopier(operations: faults))
        #expect(taken == nil)
        #expect(try PhotoStore.fileNames(in: setup.folderPath).isEmpty, "\(setup.folderPath)")
        let next = try setup.write(as: "photo-b1.jpg", with: StickCopier(operations: faults))
        #expect(next?.digest == ContentDigest(of: setup.photo))
        #expect(
            readFile("\(setup.folderPath)/photo-b1.jpg").map(ContentDigest.init(of:)) == ContentDigest(of: setup.photo))
    }

    /// A copy that reads back other than written (a fake-capacity stick) fails its verification with EIO; one that
    /// reads back right passes.
    @Test func aCopyIsVerifiedAgainstWhatWasWritten() throws {
        let setup = try Setup()
        defer { setup.close() }
        let copier = StickCopier(operations: SystemFileOperations())
        let written = try #require(try setup.write(as: "photo.jpg", with: copier))
        let entry = ExportManifest.Entry(
            booth: "b", source: "photo.jpg", path: "2026-12-07/photo.jpg", digest: written.digest)
        let exportPath = String(setup.folderPath.dropLast("/2026-12-07".count))
        try copier.verify(entry, name: "photo.jpg", in: setup.folder, exportPath: exportPath)
        var wrapped = setup.photo
        wrapped[0] ^= 0xFF
        try DurableFile().write(wrapped, path: "\(setup.folderPath)/photo.jpg", replacing: true)
        #expect {
            try copier.verify(entry, name: "photo.jpg", in: setup.folder, exportPath: exportPath)
        } throws: { error in
            (error as? SystemError)?.operation == "verify" && (error as? SystemError)?.errno == EIO
        }
    }
}
