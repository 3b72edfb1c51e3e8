import BoothSystem
// SoundFileError: why a custom sound file was refused, worded for the person holding the USB stick.
import BoothTime

/// Why a custom sound file cannot be used; `description` names the file, the reason and the fix.
public struct SoundFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong with the file.
    public enum Reason: Sendable, Equatable {
        /// The file could not be opened or read; `operation` is the failing call.
        case unreadable(operation: String, errno: Int32)
        /// The path is a symbolic link, folder or device, not a regular file.
        case notRegularFile
        /// The bytes are not a RIFF/WAVE file.
        case notWAV
        /// The samples are not 16- or 24-bit integer PCM; the payload names the encoding found.
        case unsupportedEncoding(String)
        /// The sample rate is outside 8000...96000 Hz.
        case unsupportedSampleRate(Int)
        /// The file has neither one nor two channels.
        case unsupportedChannelCount(Int)
        /// The sound plays longer than the limit.
        case tooLong(length: Duration, limit: Duration)
        /// The file is bigger than the limit.
        case tooLarge(bytes: Int, limit: Int)
        /// The file ends early or lacks a required chunk; the payload says what is missing.
        case truncated(String)
        /// The file decodes to zero samples.
        case empty
        /// Copying the file into the sounds folder failed; `operation` is the failing call.
        case cannotCopy(operation: String, errno: Int32)
        /// The sounds folder holds as many sounds as it may; this one was left.
        case tooMany(limit: Int)
        /// The sounds folder would hold more bytes than it may with this one; it was left.
        case folderFull(limit: Int)
        /// The booth already has a sound of this name (`sound`); an import never replaces it.
        case alreadyThere(sound: String)
    }

    /// The file name (or path) as the user knows it.
    public var file: String
    /// What is wrong.
    public var reason: Reason

    /// An error about `file`.
    public init(file: String, reason: Reason) {
        self.file = file
        self.reason = reason
    }

    /// One sentence naming the file and the problem, then the fix.
    public var description: String {
        let convert =
            "Fix: re-export it as WAV, 16-bit PCM, 44100 or 48000 Hz (Audacity: File > Export > Export as WAV)."
        switch reason {
        case .unreadable(let operation, let code):
            return "Sound '\(file)' cannot be read (\(operation): \(ErrnoText.describe(code))). "
                + "Fix: check the file and USB stick are readable, or copy the file again."
        case .notRegularFile:
            return "Sound '\(file)' is not a regular file (a link, folder or device); it is skipped. "
                + "Fix: put the WAV file itself in the folder."
        case .notWAV:
            return "Sound '\(file)' is not a WAV file (no RIFF/WAVE header). \(convert)"
        case .unsupportedEncoding(let encoding):
            return "Sound '\(file)' uses \(encoding); only 16- or 24-bit integer PCM is supported. \(convert)"
        case .unsupportedSampleRate(let rate):
            return "Sound '\(file)' has sample rate \(rate) Hz; 8000 to 96000 Hz is supported. \(convert)"
        case .unsupportedChannelCount(let count):
            return "Sound '\(file)' has \(count) channels; mono or stereo is supported. \(convert)"
        case .tooLong(let length, let limit):
            return "Sound '\(file)' lasts \(formatted(length)) s; the limit is \(formatted(limit)) s. "
                + "Fix: trim it to the attention-grabbing part (a short sound works best)."
        case .tooLarge(let bytes, let limit):
            return "Sound '\(file)' is \(bytes / 1024) KiB; the limit is \(limit / 1024) KiB. "
                + "Fix: trim it, or export it as mono 16-bit PCM."
        case .truncated(let what):
            return "Sound '\(file)' is damaged or incomplete (\(what)). Fix: copy it again or re-export it."
        case .empty:
            return "Sound '\(file)' contains no samples. Fix: re-export it with the sound in it."
        case .cannotCopy(let operation, let code):
            return
                "Sound '\(file)' could not be copied into the sounds folder (\(operation): \(ErrnoText.describe(code))). "
                + "Fix: check that the SD card has free space and the sounds folder is writable."
        case .tooMany(let limit):
            return "Sound '\(file)' was not imported: the booth keeps at most \(limit) sounds of its own. "
                + "Fix: remove sounds you no longer want from the sounds folder (sound.sounds_dir)."
        case .folderFull(let limit):
            return "Sound '\(file)' was not imported: the booth's own sounds may take \(limit / 1024 / 1024) MiB "
                + "together. Fix: remove sounds you no longer want from the sounds folder (sound.sounds_dir), "
                + "or trim this one."
        case .alreadyThere(let sound):
            return "Sound '\(file)' was not imported: the booth already has a sound named '\(sound)', and a stick "
                + "never replaces one. Fix: rename the file on the stick, or remove the booth's one from the sounds "
                + "folder (sound.sounds_dir) first."
        }
    }

    /// Seconds to the tenth: "5.0".
    private func formatted(_ duration: Duration) -> String {
        let tenths = (duration.inMilliseconds + 50) / 100
        return "\(tenths / 10).\(tenths % 10)"
    }
}
