// ExportError: why an export stopped, how far it got, and what the person at the booth can do.
import BoothSystem
import Glibc

/// An export that stopped. Everything copied before it stopped is complete and verified on the stick;
/// the booth's own photos are untouched; the next export resumes.
public struct ExportError: Error, CustomStringConvertible {
    /// What went wrong.
    public enum Reason: Sendable {
        /// The stick's file system is not in the allowed list (named as /proc/mounts names it).
        case unsupportedFileSystem(String)
        /// A symbolic link (or a file) sits where the export folder or a date folder should be.
        case refusedLink(String)
        /// The file system at the mount point is not the one mountinfo showed there (its device, "major:minor",
        /// differs): something else was mounted over it, or it is a folder, not the stick's mount.
        case mountChanged(mountPoint: String, expected: String, found: String)
        /// Only the owner's sticks get photos (`export.sticks = "owner"`) and this one is not one of them: its
        /// export folder's manifest carries no id the booth knows, or it has none.
        case unknownStick(mountPoint: String)
        /// A call failed (pulled stick, full stick, read-only stick, I/O error ...).
        case failed(SystemError)
        /// The booth asked it to stop between two photos (it is shutting down).
        case stopped
    }

    /// What went wrong.
    public var reason: Reason
    /// Photos copied (or found already there and verified) before it stopped.
    public var done: Int
    /// Photos this export meant to copy.
    public var total: Int
    /// Whether the stick was flushed and unmounted after the failure (safe to remove).
    public var unmounted = false

    /// A stopped export.
    public init(_ reason: Reason, done: Int, total: Int) {
        self.reason = reason
        self.done = done
        self.total = total
    }

    /// The errno behind it, if a call failed.
    public var errno: Int32? {
        if case .failed(let error) = reason { return error.errno }
        return nil
    }

    /// Whether the mount was refused for its file system (ext4, NTFS, tmpfs ...) or for not being the mount the
    /// booth saw: nothing was read, written, flushed or unmounted there.
    public var isRefusedFileSystem: Bool {
        switch reason {
        case .unsupportedFileSystem, .mountChanged: return true
        default: return false
        }
    }

    /// Whether the stick was refused for not being one of the owner's: nothing was written, flushed or unmounted.
    public var isUnknownStick: Bool {
        if case .unknownStick = reason { return true }
        return false
    }

    /// Whether the export stopped because it was asked to (`shouldStop`, a shutdown).
    public var isStopped: Bool {
        if case .stopped = reason { return true }
        return false
    }

    /// Whether a copy read back from the stick differed from what was written (DurableFile's
    /// "verify"): the stick is failing or fake, not gone.
    public var verificationFailed: Bool {
        if case .failed(let error) = reason { return error.operation == "verify" }
        return false
    }

    /// Whether the stick went away (pulled out mid-copy): EIO, ENODEV, ENXIO, ESHUTDOWN or ENOTCONN
    /// from any call but the read-back comparison.
    public var stickRemoved: Bool {
        guard let code = self.errno, !verificationFailed else { return false }
        return Errno(rawValue: code).meansDeviceGone
    }

    public var description: String {
        let progress = "\(done) of \(total) photos copied"
        switch reason {
        case .unsupportedFileSystem(let type):
            return
                "The stick's file system (\(type)) is not supported: format it as FAT32 or exFAT. Nothing was written, and it stays mounted."
        case .mountChanged(let point, let expected, let found):
            return
                "\(point) holds device \(found), not the stick that was mounted there (device \(expected)): nothing was read or written, and it stays mounted. Unplug the stick and plug it in again."
        case .unknownStick(let point):
            return
                "The stick at \(point) is not one of this booth's own (export.sticks = \"owner\"): nothing was written, and it stays mounted. To make it the booth's own, hold the knob's switch for 1 s while it is in (the LEDs show an unknown stick); or set export.sticks = \"any\" to give every stick the photos."
        case .refusedLink(let path):
            return
                "\(path) is a link or a file, not a folder: export refused, nothing was written outside the export folder."
        case .stopped where total == 0:
            // Nothing planned yet (a plan with no photos never asks to stop): stopped while the claims were read back.
            return
                "Export stopped because the booth is shutting down, while it checked the photos already on the stick: nothing was copied; the next insert checks them again and copies the rest."
        case .stopped:
            return
                "Export stopped because the booth is shutting down: \(progress), all complete and verified; the rest are copied next time."
        case .failed(let error) where verificationFailed:
            return
                "A copy on the stick read back different from the photo (verification failed) after \(done) of \(total) photos: none of this export's copies counts as exported. The stick may be failing or fake (less room than it claims): use another one. (\(error.subject))"
        case .failed(let error):
            switch error.errno {
            case ENOSPC, EDQUOT:
                return
                    "The stick is full: \(progress), all complete and verified. Use a stick with more room; the rest are copied next time. (\(error))"
            case EROFS:
                return "The stick is read-only (write-protect switch?): \(progress). (\(error))"
            case EFBIG:
                return "A photo is too large for this stick's file system: \(progress). (\(error))"
            default:
                if stickRemoved {
                    return "The stick was removed during the export: \(progress). Insert it again to finish. (\(error))"
                }
                return "Export stopped: \(progress). (\(error))"
            }
        }
    }
}
