// CameraDevice: takes photos.
import BoothCore
import BoothTime
import PhotoEncoding

/// Takes photos. Real: libcamera through the shim; simulated: a test pattern with the time drawn in. Each is made
/// with its `DeviceContext`: frames go to its `frames`, failures to its `report`.
protocol CameraDevice: AnyObject {
    /// A short name for logs ("libcamera:/base/...", "simulated").
    var name: String { get }
    /// The camera's model for EXIF.
    var model: String { get }
    /// Arms a capture: the first frame whose exposure starts at or after `trigger`.
    func capture(_ id: CaptureID, trigger: Instant)
    /// The scene's light level (lux) from the latest frame, nil when the camera reports none.
    var lightLevel: Double? { get }
    /// Gives up on capture `id`, which got no frame in time: no frame is delivered for it later.
    func expire(_ id: CaptureID)
    /// Idle: a few frames a second (the light level stays fresh); not idle: every frame (full rate).
    func setIdle(_ idle: Bool)
}
