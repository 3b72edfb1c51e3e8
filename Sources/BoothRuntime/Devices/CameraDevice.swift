// CameraDevice: takes photos.
import BoothCore
import BoothTime
import PhotoEncoding

/// Takes photos. Real: libcamera through the shim, or libgphoto2 (a camera over USB); simulated: a test pattern with
/// the time drawn in. Each is made
/// with its `DeviceContext`: frames go to its `frames`, failures to its `report`.
package protocol CameraDevice: AnyObject {
    /// A short name for logs ("libcamera:/base/...", "simulated").
    var name: String { get }
    /// The camera's model for EXIF.
    var model: String { get }
    /// Finds focus now (the countdown has begun), where the camera has something to drive (libgphoto2's autofocus
    /// drive); otherwise nothing.
    func focus()
    /// Arms a capture: the first frame whose exposure starts at or after `trigger`.
    func capture(_ id: CaptureID, trigger: Instant)
    /// The scene's light level (lux) from the latest frame, nil when the camera reports none.
    var lightLevel: Double? { get }
    /// Gives up on capture `id`, which got no frame in time: no frame is delivered for it later.
    func expire(_ id: CaptureID)
    /// Idle: a few frames a second (the light level stays fresh); not idle: every frame (full rate).
    func setIdle(_ idle: Bool)
    /// The booth stops: what the camera's owner set is put back, and the camera closed where that needs waiting for.
    func stop()
}
