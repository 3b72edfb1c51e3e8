// CameraError: why the camera could not do what was asked, and what the operator should do about it.
import BoothSystem

/// A camera failure; each message names the camera and the fix.
public enum CameraError: Error, Equatable, CustomStringConvertible {
    /// No camera matches `selector`; `available` describes what libcamera sees.
    case noCamera(selector: String, available: [String])
    /// Another program holds the camera (EBUSY).
    case busy(camera: String)
    /// The capture with `cookie` got no frame before its deadline.
    case timeout(camera: String, cookie: UInt64)
    /// The camera disappeared (unplugged, or its driver stopped).
    case gone(camera: String)
    /// libcamera refused `operation` with `errno`; `detail` is the step that failed, in the shim's words.
    case failed(camera: String, operation: String, errno: Int32, detail: String)

    public var description: String {
        switch self {
        case .noCamera(let selector, let available) where available.isEmpty:
            "no camera \"\(selector)\": libcamera sees no cameras. Power off, reseat the ribbon cable "
                + "(contacts towards the board's contacts), power on, then check `rpicam-hello --list-cameras`."
        case .noCamera(let selector, let available):
            "no camera \"\(selector)\"; libcamera sees: \(available.joined(separator: "; ")). "
                + "Set the camera selector to one of these indexes or ids."
        case .busy(let camera):
            "camera \(camera) is in use by another program (EBUSY). Close it (rpicam-*, another booth; "
                + "`fuser -v /dev/media* /dev/video*` shows who) and try again."
        case .timeout(let camera, let cookie):
            "camera \(camera) delivered no frame for capture \(cookie) in time. Check the ribbon cable and "
                + "`dmesg` for CSI/unicam errors; reopening the camera usually recovers."
        case .gone(let camera):
            "camera \(camera) disappeared (unplugged or its driver stopped). Reconnect it with the power off, "
                + "then restart the booth."
        case .failed(let camera, let operation, let code, let detail):
            "camera \(camera): \(operation) failed: \(detail.isEmpty ? "" : "\(detail): ")\(ErrnoText.describe(code)). "
                + "`dmesg` shows the driver's side; `rpicam-hello --list-cameras` whether libcamera still sees it."
        }
    }
}
