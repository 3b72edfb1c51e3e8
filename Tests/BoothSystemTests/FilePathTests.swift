// FilePathTests: a path taken apart into its folder and its name, at the root, alone, and with a trailing slash.
import BoothSystem
import Testing

@Suite struct FilePathTests {
    /// The cases the booth meets: a file in a folder, at the root, a name alone, a trailing slash, the root itself.
    /// Mutation: answering "" for a name alone's folder fails it (DurableFile would write to "/.NAME.tmp").
    @Test(arguments: [
        ("/var/lib/heylook/state.toml", "/var/lib/heylook", "state.toml"),
        ("/state.toml", "/", "state.toml"),
        ("state.toml", ".", "state.toml"),
        ("photos/HeyLook_1.jpg", "photos", "HeyLook_1.jpg"),
        ("/dev/input/", "/dev", "input"),
        ("/", "/", ""),
    ])
    func aPathIsItsFolderAndItsName(path: String, folder: String, name: String) {
        #expect(FilePath(path).folder == folder)
        #expect(FilePath(path).name == name)
    }
}
