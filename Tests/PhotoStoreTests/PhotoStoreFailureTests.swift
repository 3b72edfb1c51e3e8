// PhotoStoreFailureTests: the store's folder calls that fail say which call, on what, and why (errno by name).
import BoothSystem
import BoothTestSupport
import Glibc
import Testing

@testable import PhotoStore

@Suite struct PhotoStoreFailureTests {
    @Test func makeDirectoriesPassesOverFoldersThereAndNamesTheOneItCannotMake() throws {
        let directory = temporaryDirectory()
        try PhotoStore.makeDirectories("\(directory)/a/b")
        try PhotoStore.makeDirectories("\(directory)/a/b")  // EEXIST at every step: nothing to do.
        #expect(Glibc.close(Glibc.open("\(directory)/file", O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)) == 0)
        #expect {
            try PhotoStore.makeDirectories("\(directory)/file/sub")
        } throws: { error in
            let error = error as? SystemError
            return error?.operation == "mkdir" && error?.subject == "\(directory)/file/sub"
                && error?.code == .notDirectory
        }
    }

    @Test func listingAMissingFolderFailsWithOpendir() {
        let missing = "\(temporaryDirectory())/missing"
        #expect(throws: SystemError("opendir", missing, errno: ENOENT)) {
            try PhotoStore.fileNames(in: missing)
        }
    }

    @Test func aStoreWithoutLayoutsFolderHasNoLayouts() throws {
        let store = try PhotoStore(directory: temporaryDirectory(), reserve: 0, machine: "serial:1111")
        #expect(try store.layouts().isEmpty)
        #expect(try store.companionFiles().isEmpty)
    }

    @Test func discardingAPhotoThatIsGoneFailsWithRename() throws {
        let directory = temporaryDirectory()
        let store = try PhotoStore(directory: directory, reserve: 0, machine: "serial:1111")
        let path = try store.save([0xFF, 0xD8, 0xFF, 0xD9], takenAt: nil)
        #expect(Glibc.unlink(path) == 0)
        #expect(throws: SystemError("rename", path, errno: ENOENT)) { try store.discard(path) }
    }
}
