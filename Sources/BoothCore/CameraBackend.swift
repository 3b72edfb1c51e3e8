// CameraBackend: which library drives the camera (`camera.backend`).

/// Which library drives the camera.
public enum CameraBackend: String, CaseIterable, Sendable {
    /// libgphoto2 when it finds a camera over USB that can take photos at start, else libcamera.
    case auto
    /// A camera module (CSI) or a USB webcam, through libcamera.
    case libcamera
    /// A DSLR or mirrorless camera over USB, through libgphoto2.
    case gphoto2
}
