// DeviceFault+Libraries: each library's error as the fault the state machine gets, and errno's kinds read once.
import BoothCore
import BoothSystem
import CameraCapture
import GPhotoCapture
import SoundOutput
import USBSticks

extension DeviceFault.Kind {
    /// The kind of failure errno `code` means: the booth's one reading of errno into kinds. `inUse`: the answer came
    /// from a device already open (ENODEV, ENXIO then mean it went away), not from opening it (they mean it is not
    /// there).
    package init(errno code: Int32, inUse: Bool) {
        let answer = Errno(rawValue: code)
        if inUse, answer.meansDeviceGone {
            self = .gone
        } else if answer.meansDeviceMissing {
            self = .missing
        } else if answer.meansDeviceGone {
            self = .gone
        } else if answer.meansNotAllowed {
            self = .notAllowed
        } else if answer == .resourceBusy {
            self = .busy
        } else if answer == .noSpace || answer == .diskQuotaExceeded {
            self = .full
        } else if answer == .timedOut {
            self = .timedOut
        } else {
            self = .failed
        }
    }
}

extension DeviceFault {
    /// A failure of a file or system call (`SystemError`) of `source`, its kind read from its errno.
    package init(_ source: Source, _ error: SystemError, inUse: Bool = true, message: String? = nil) {
        self.init(
            source, Kind(errno: error.errno, inUse: inUse), code: .system(error.errno), operation: error.operation,
            message ?? error.description)
    }

    /// libcamera's failure to capture.
    package init(camera error: CameraError) {
        let kind: Kind
        var code = Code.none
        var operation: String?
        switch error {
        case .noCamera: kind = .missing
        case .busy: kind = .busy
        case .timeout: kind = .timedOut
        case .gone: kind = .gone
        case .failed(_, let call, let answer, _):
            kind = Kind(errno: answer, inUse: true)
            code = .system(answer)
            operation = call
        }
        self.init(.camera, kind, code: code, operation: operation, error.description)
    }

    /// libgphoto2's failure to capture or download.
    package init(camera error: GPhotoError) {
        let kind: Kind
        var code = Code.none
        var operation: String?
        switch error {
        case .noCamera: kind = .missing
        case .busy: kind = .busy
        case .gone: kind = .gone
        case .cardFull: kind = .full
        case .noPhoto: kind = .timedOut
        case .noJPEG: kind = .failed
        case .failed(_, let call, let library, _):
            kind = .failed
            code = .library("libgphoto2", library)
            operation = call
        }
        self.init(.camera, kind, code: code, operation: operation, error.description)
    }

    /// An export's failure: `.gone` exactly when the stick was pulled out (`ExportError.stickRemoved`), else the kind
    /// its errno means (a read-back that differed is a failing stick, not a gone one).
    package init(stick error: ExportError) {
        // Read into plain values first: Swift 6.3's optimizer crashed on closures over the error (release builds).
        let removed = error.stickRemoved
        let message = error.description
        guard case .failed(let failure) = error.reason else {
            self.init(.stick, .failed, code: .none, message)
            return
        }
        let code = failure.errno
        let kind = Kind(errno: code, inUse: true)
        self.init(
            .stick, removed ? .gone : kind == .gone ? .failed : kind, code: .system(code),
            operation: failure.operation, message)
    }

    /// ALSA's failure to play.
    package init(sound error: SoundDeviceError) {
        self.init(
            .sound, Kind(errno: error.code, inUse: true), code: .system(error.code), operation: error.operation,
            error.description)
    }
}
