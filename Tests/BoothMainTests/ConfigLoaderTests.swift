// ConfigLoaderTests: the config and state files as `booth run` loads them.
import BoothCore
import BoothTestSupport
import Glibc
import Testing

@testable import BoothMain

/// The config file and the state file as `booth run` and `booth simulate` load them: a bad config
/// stops the start with a clear error, a bad state file never does.
@Suite struct ConfigLoaderTests {
    /// A state file the booth cannot read (a folder, larger than the limit) gives the defaults and a
    /// warning naming the file and what to do, so `booth run` still starts.
    @Test(arguments: ["folder", "huge"])
    func anUnreadableStateFileGivesTheDefaultsWithAWarning(kind: String) throws {
        var settings = BoothSettings()
        settings.stateFile = "\(temporaryDirectory())/state.toml"
        if kind == "folder" {
            #expect(mkdir(settings.stateFile, 0o755) == 0)
        } else {
            let fd = open(settings.stateFile, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
            #expect(ftruncate(fd, 5 * 1024 * 1024) == 0)
            close(fd)
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
