// GPhotoControl: what the booth asks of a camera over USB; libgphoto2's camera answers, and tests' scripted ones.

/// What the booth asks of an open camera over USB. `GPhotoCamera` is libgphoto2's; tests give scripted ones for what
/// the virtual camera cannot do (an autofocus drive, a RAW, a full card, an unplug). Every call may block on USB.
public protocol GPhotoControl: AnyObject {
    /// "Canon EOS 2000D (usb:001,005)".
    var name: String { get }
    /// "Canon EOS 2000D".
    var model: String { get }
    /// Whether it can take photos, as its driver says once it is open (a phone in MTP mode cannot).
    var canTakePhotos: Bool { get }
    /// The setting `key` as text; nil when the camera has none.
    func setting(_ key: String) -> String?
    /// The values the choice `key` offers.
    func choices(_ key: String) -> [String]
    /// Sets `key` to `value`.
    func set(_ key: String, to value: String) throws(GPhotoError)
    /// Presses the shutter.
    func triggerCapture() throws(GPhotoError)
    /// What the camera says next, within `within`.
    func waitForEvent(within: Duration) throws(GPhotoError) -> GPhotoCamera.Event
    /// The file `folder`/`name`, whole.
    func download(folder: String, name: String) throws(GPhotoError) -> [UInt8]
    /// Deletes `folder`/`name` from the camera.
    func delete(folder: String, name: String) throws(GPhotoError)
    /// The free space on its cards, in bytes; nil when it says none.
    func freeBytes() -> Int64?
}

extension GPhotoCamera: GPhotoControl {}
