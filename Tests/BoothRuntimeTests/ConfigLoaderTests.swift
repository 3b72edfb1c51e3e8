// ConfigLoaderTests: the config and state files as `booth run` loads them.
import BoothCore
import BoothTestSupport
import Glibc
import Testing

@testable import BoothRuntime

/// The config file and the state file as `booth run` and `booth simulate` load them: a bad config
/// stops the start with a clear error, a bad state file never does.
@Suite struct ConfigLoaderTests {
    /// A state file the booth cannot read gives the defaults and a warning naming the file and what to
    /// do, so `booth run` still starts: a folder, larger than the limit, one that cannot be opened (a
    /// file where a folder of its path should be: ENOTDIR, as EACCES is for the booth's user; the tests
    /// run as root, which permissions do not stop), and one whose read fails (EIO: a link to
    /// /proc/self/mem, whose first page is never mapped).
    @Test(arguments: ["folder", "huge", "cannot open", "read error"])
    func anUnreadableStateFileGivesTheDefaultsWithAWarning(kind: String) throws {
        var settings = BoothSettings()
        let directory = temporaryDirectory()
        settings.stateFile = "\(directory)/state.toml"
        switch kind {
        case "folder":
            #expect(mkdir(settings.stateFile, 0o755) == 0)
        case "huge":
            let fd = open(settings.stateFile, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
            #expect(ftruncate(fd, 5 * 1024 * 1024) == 0)
            close(fd)
        case "cannot open":
            let fd = open("\(directory)/file", O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
            close(fd)
            settings.stateFile = "\(directory)/file/state.toml"
        default:
            #expect(symlink("/proc/self/mem", settings.stateFile) == 0)
        }
        let (choices, warning) = ConfigLoader.choices(settings: settings)
        #expect(choices == settings.defaultChoices)
        let text = try #require(warning)
        #expect(text.contains(settings.stateFile))
        #expect(text.contains("using the defaults"))
    }

    /// The config file, by contrast, stays a start error.
    @Test func aConfigFileThatIsAFolderIsAStartError() {
        let path = temporaryDirectory()
        #expect(throws: BoothFailure.self) { try ConfigLoader.settings(path: path) }
    }

    /// A readable state file is decoded as before.
    @Test func aGoodStateFileIsRead() throws {
        var settings = BoothSettings()
        settings.stateFile = "\(temporaryDirectory())/state.toml"
        let saved = RuntimeChoices(sound: "Cow", delayHalfSeconds: 5, visualCountdown: false)
        let fd = open(settings.stateFile, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        let bytes = Array(ChoicesFile.encode(saved).utf8)
        #expect(write(fd, bytes, bytes.count) == bytes.count)
        close(fd)
        let (choices, warning) = ConfigLoader.choices(settings: settings)
        #expect(choices == saved)
        #expect(warning == nil)
    }
}
