// StickSounds: what a stick may do to the booth's sounds: opt-in, after the file-system check, never following a link.
import BoothCore
import BoothSystem
import PhotoStore
import SoundOutput
import USBSticks

/// Imports the WAV files of a stick's `HeyLook/sounds/` folder into the booth's sounds folder, on the export
/// worker before the stick's export.
///
/// A stick changes the booth's sounds only when the owner turned it on (`sound.stick_sounds`), only from a
/// stick the export would accept (`StickAdmission`: a folder, not a link, the file system mountinfo showed, of an
/// accepted type),
/// with every name opened relative to the stick's root descriptor with `O_NOFOLLOW`, and never replacing a
/// sound the booth has (`SoundLibrary.importSounds`, within its limits).
package struct StickSounds: Sendable {
    /// Whether sticks may add sounds (`sound.stick_sounds`).
    let enabled: Bool
    /// The booth's folder on a stick (`export.folder`); its `sounds` folder is read.
    let exportFolder: String
    /// The booth's sounds folder (`sound.sounds_dir`).
    let soundsDirectory: String
    /// The file systems a stick may have (those the export accepts).
    let allowedFileSystems: Set<String>
    /// How many sounds, and bytes, the sounds folder may hold.
    let limits: SoundLibrary.ImportLimits
    /// Every call, on the stick and in the sounds folder.
    let operations: any FileOperations

    /// What an import from a stick gave: the sounds now in the sounds folder, decoded and ready to play, and why
    /// each of the others was not taken.
    package struct Imported: Sendable {
        package var sounds: [CustomSound] = []
        package var rejections: [String] = []
    }

    /// The booth's own: sticks' sounds as `settings` say (`sound.stick_sounds`, `export.folder`,
    /// `sound.sounds_dir`), from sticks of `allowedFileSystems`.
    package init(settings: BoothSettings, allowedFileSystems: Set<String>) {
        self.init(
            enabled: settings.stickSounds, exportFolder: settings.exportFolder, into: settings.soundsDirectory,
            allowedFileSystems: allowedFileSystems)
    }

    init(
        enabled: Bool, exportFolder: String, into soundsDirectory: String, allowedFileSystems: Set<String>,
        limits: SoundLibrary.ImportLimits = SoundLibrary.ImportLimits(),
        operations: any FileOperations = SystemFileOperations()
    ) {
        self.enabled = enabled
        self.exportFolder = exportFolder
        self.soundsDirectory = soundsDirectory
        self.allowedFileSystems = allowedFileSystems
        self.limits = limits
        self.operations = operations
    }

    /// The stick's sounds copied into the sounds folder and decoded, with a message for each file (or
    /// folder) refused; nil when there is nothing to say: no sounds folder, or a stick the export refuses
    /// (the export's own failure then says why). `device` is the stick's device number as mountinfo showed it.
    func importSounds(from mountPoint: String, device: String? = nil) -> Imported? {
        guard
            let root = try? StickAdmission.admit(
                mountPoint, device: device, allowing: allowedFileSystems, operations: operations
            ).root
        else { return nil }
        defer { _ = operations.close(root) }
        let path = "\(exportFolder)/sounds"
        let booth: FileDescriptor
        do {
            booth = try operations.openFolder(exportFolder, in: root, path: "\(mountPoint)/\(exportFolder)")
        } catch {
            return refusal(path, error.errno)
        }
        defer { _ = operations.close(booth) }
        let folder: FileDescriptor
        do {
            folder = try operations.openFolder("sounds", in: booth, path: "\(mountPoint)/\(path)")
        } catch {
            return refusal(path, error.errno)
        }
        defer { _ = operations.close(folder) }
        guard enabled else {
            return Imported(
                rejections: [
                    "The stick's \(path) folder was not read: sounds from sticks are off. Fix: set "
                        + "stick_sounds = true in the [sound] section of the booth's config "
                        + "(/etc/heylook/booth.toml), restart the booth and plug the stick in again."
                ])
        }
        do {
            try PhotoStore.makeDirectories(soundsDirectory, operations: operations)
        } catch {
            return Imported(rejections: ["sounds folder \(soundsDirectory): \(error)"])
        }
        let result = SoundLibrary.importSounds(
            from: folder, sourcePath: "\(mountPoint)/\(path)", into: soundsDirectory, limits: limits,
            operations: operations)
        let stems = Set(result.imported.map { String($0.dropLast(4)) })
        let loaded = SoundLibrary.load(folder: soundsDirectory, operations: operations).sounds.filter {
            stems.contains($0.name)
        }
        return Imported(sounds: loaded, rejections: result.rejections.map(\.description))
    }

    /// Nothing to import when the folder is missing; otherwise why `path` on the stick was not read.
    private func refusal(_ path: String, _ code: Int32) -> Imported? {
        switch Errno(rawValue: code) {
        case .noSuchFileOrDirectory: return nil
        case .tooManySymbolicLinkLevels, .notDirectory:
            return Imported(
                rejections: [
                    "The stick's \(path) is not a folder (a link or a file); it is not read. Fix: make it a folder."
                ])
        default:
            return Imported(
                rejections: ["The stick's \(path) folder cannot be read (open: \(ErrnoText.describe(code)))."])
        }
    }
}
