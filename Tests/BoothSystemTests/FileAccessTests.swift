// FileAccessTests: whether something is at a path, readable, or missing; and who owns it.
import BoothSystem
import BoothTestSupport
import Glibc
import Testing

@Suite struct FileAccessTests {
    @Test func aFileIsThereAndReadableAndANameNotMissingWhenAFolderOnTheWayIsAFile() throws {
        let directory = temporaryDirectory()
        let path = "\(directory)/booth.toml"
        try DurableFile().write(Array("[booth]\n".utf8), path: path)
        #expect(FileAccess.exists(path))
        #expect(FileAccess.isReadable(path))
        #expect(!FileAccess.isMissing(path))
        #expect(!FileAccess.exists("\(directory)/none"))
        #expect(FileAccess.isMissing("\(directory)/none"))
        // ENOTDIR, not ENOENT: not missing, and not there either.
        #expect(!FileAccess.exists("\(path)/inside"))
        #expect(!FileAccess.isMissing("\(path)/inside"))
    }

    @Test func theOwnerIsThisProcessesUserAndALinkHasItsOwn() throws {
        let directory = temporaryDirectory()
        #expect(try FileOwner.userID(of: directory) == getuid())
        #expect(symlink("/", "\(directory)/root") == 0)
        #expect(try FileOwner.userID(of: "\(directory)/root", followingLinks: false) == getuid())
        #expect(throws: SystemError("lstat", "\(directory)/none", errno: ENOENT)) {
            try FileOwner.userID(of: "\(directory)/none", followingLinks: false)
        }
        #expect(FileOwner.userName(0) == "root")
    }

    @Test func theEnvironmentAndTheWorkingDirectoryAreRead() {
        // Read only: setenv beside the other suites' threads is not safe.
        #expect(Environment.value("PATH") == String(cString: getenv("PATH")))
        #expect(Environment.value("HEYLOOK_NEVER_SET_BY_ANYONE") == nil)
        let current = WorkingDirectory.current()
        #expect(current?.hasPrefix("/") == true)
        #expect(current.map(FileAccess.exists) == true)
    }
}
