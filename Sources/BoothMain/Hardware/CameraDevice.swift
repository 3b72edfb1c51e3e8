import BoothCore
import PhotoEncoding

/// A frame the camera delivered, encodable on the save worker. `release()` returns its buffer to the
/// camera; it must be called exactly once, on any thread.
protocol CapturedFrame: Sendable {
    /// When the frame's exposure started (monotonic).
    var sensorTime: Instant { get }
    /// Exposure time in microseconds, when known.
    var exposureMicroseconds: Int? { get }
    /// Analogue gain, when known.
    var analogueGain: Double? { get }
    /// Encodes the frame as JPEG (on the worker thread).
    func encodeJPEG(_ options: JPEGOptions) throws -> [UInt8]
    /// Gives the buffer back to the camera.
    func release()
}

/// Takes photos. Real: libcamera through the shim; simulated: a test pattern with the time drawn in.
protocol CameraDevice: AnyObject {
    /// A short name for logs ("libcamera:/base/...", "simulated").
    var name: String { get }
    /// The camera's model for EXIF.
    var model: String { get }
    /// Registers descriptors with the loop; delivered frames come to `frames`, failures to `report`.
    func attach(to loop: EventLoop, report: @escaping DeviceReport, frames: @escaping (CaptureID, any CapturedFrame) -> Void) throws
    /// Arms a capture: the first frame whose exposure starts at or after `trigger`.
    func capture(_ id: CaptureID, trigger: Instant)
}
