// GPhotoError: why a camera over USB (libgphoto2) could not do what was asked, and what the photographer should do.
import BoothTime

/// A libgphoto2 camera's failure; each message names the camera and the fix.
public enum GPhotoError: Error, Equatable, CustomStringConvertible {
    /// libgphoto2 finds no camera `selector` names ("auto": none that can take photos); `found` is what it finds
    /// instead, those that cannot take photos (a phone charging on the booth's USB speaks MTP too) said so.
    case noCamera(selector: String, found: [String])
    /// Another program holds the camera's USB interface ("Could not claim the USB device").
    case busy(camera: String)
    /// The camera went away: unplugged, switched off, or asleep past what USB keeps.
    case gone(camera: String)
    /// The camera's card is full (or it has none, when photos are kept on it).
    case cardFull(camera: String)
    /// The camera took no photo within `within` of the trigger.
    case noPhoto(camera: String, within: Duration)
    /// The camera saved the photo only as `file`, not as a JPEG (its image quality is RAW alone).
    case noJPEG(camera: String, file: String)
    /// libgphoto2 refused `operation` with `code`, `detail` in libgphoto2's words.
    case failed(camera: String, operation: String, code: Int32, detail: String)

    public var description: String {
        switch self {
        case .noCamera(_, let found) where found.isEmpty:
            "no camera over USB: libgphoto2 finds none. Connect the camera with its USB cable, switch it on and set "
                + "its USB mode to PTP or PC (not mass storage), then check `gphoto2 --auto-detect`."
        case .noCamera(let selector, let found) where GPhotoSession.isFirst(selector):
            "no camera over USB that can take photos: libgphoto2 finds only \(found.joined(separator: "; ")). "
                + "Connect the camera, switch it on (USB mode PTP or PC), then check `gphoto2 --auto-detect`."
        case .noCamera(let selector, let found):
            "no camera \"\(selector)\" over USB; libgphoto2 finds \(found.joined(separator: "; ")). Set camera.id "
                + "to one of these models or ports, or to \"0\" for the first camera that can take photos."
        case .busy(let camera):
            "camera \(camera) is in use by another program (libgphoto2 could not claim its USB interface). Close it "
                + "(gphoto2, a desktop's gvfs-gphoto2-volume-monitor: `systemctl --user stop "
                + "gvfs-gphoto2-volume-monitor`; `fuser -v /dev/bus/usb/*/*` shows who) and try again."
        case .gone(let camera):
            "camera \(camera) went away (unplugged, switched off, or its battery ran out). Plug it in and switch it "
                + "on: the booth finds it again by itself."
        case .cardFull(let camera):
            "camera \(camera) has no room for the photo (its card is full or missing). Put in a card with room, or "
                + "set camera.keep_on_card = false so the camera keeps nothing."
        case .noPhoto(let camera, let within):
            "camera \(camera) took no photo within \(within.spoken) of the trigger. Check that it can focus (or set the "
                + "lens to MF), that it is not in a menu or reviewing a photo, and that its card has room."
        case .noJPEG(let camera, let file):
            "camera \(camera) saved the photo only as \(file), with no JPEG beside it. Set its image quality to JPEG "
                + "or RAW+JPEG: the JPEG is the booth's photo."
        case .failed(let camera, let operation, let code, let detail):
            "camera \(camera): \(operation) failed: \(detail) (libgphoto2 error \(code)). `gphoto2 --summary` shows "
                + "whether libgphoto2 still sees it; switching it off and on usually recovers."
        }
    }
}
