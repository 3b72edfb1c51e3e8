// SoundDeviceError: an ALSA call that failed, naming the call, the device, errno and the fix.
import BoothSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// An ALSA operation on a sound device failed; `description` names the operation, device, errno and fix.
public struct SoundDeviceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of failure, chosen from errno, deciding the suggested fix.
    public enum Kind: Sendable, Equatable {
        /// No such device or card (ENOENT, ENODEV, ENXIO).
        case missingDevice
        /// Another program holds the device (EBUSY).
        case busy
        /// The user may not open the device (EACCES, EPERM).
        case permissionDenied
        /// Anything else, for example a format the device cannot play.
        case other
    }

    /// The alsa-lib function that failed, e.g. "snd_pcm_open".
    public var operation: String
    /// The ALSA device name, e.g. "plughw:CARD=Headphones".
    public var device: String
    /// The positive errno value reported by alsa-lib.
    public var code: Int32

    /// An error for `operation` on `device`; `errno` may be given negative as alsa-lib returns it.
    public init(operation: String, device: String, errno code: Int32) {
        self.operation = operation
        self.device = device
        self.code = code < 0 ? -code : code
    }

    /// The failure kind derived from `code`.
    public var kind: Kind {
        let code = Errno(rawValue: code)
        if code.meansDeviceMissing { return .missingDevice }
        if code.meansNotAllowed { return .permissionDenied }
        return code == .resourceBusy ? .busy : .other
    }

    /// "<operation> on sound device '<device>' failed: <errno text>. Fix: ..."
    public var description: String {
        let fix: String
        switch kind {
        case .missingDevice:
            fix = "check that the sound card is connected and the name is right (list devices with `aplay -L`)."
        case .busy:
            fix =
                "another program such as PipeWire/PulseAudio holds it — stop it "
                + "(systemctl --user stop pipewire pulseaudio) or use plughw:CARD=<card> through that program's ALSA plugin."
        case .permissionDenied:
            fix = "add the booth user to group 'audio' (sudo usermod -aG audio <user>) and log in again."
        case .other:
            fix =
                operation.contains("hw_params")
                ? "the device cannot play 16-bit interleaved audio at this rate; use plughw:CARD=<card>, which converts."
                : "check `dmesg` for sound driver errors; reconnect the sound card or reboot."
        }
        return "\(operation) on sound device '\(device)' failed: \(ErrnoText.describe(code)). Fix: \(fix)"
    }
}
