// PhotoFrame: a frame the camera delivered, encodable on the save worker.
import BoothTime
import PhotoEncoding
import PhotoStore

/// A frame the camera delivered, encodable on the save worker. `release()` returns its buffer to the
/// camera; it must be called exactly once, on any thread.
package protocol PhotoFrame: Sendable {
    /// When the frame's exposure started (monotonic); for a camera over USB, when it acknowledged the trigger.
    var sensorTime: Instant { get }
    /// When the booth sent the camera its trigger, for a camera that is triggered (over USB); nil for a stream.
    var triggerSent: Instant? { get }
    /// Files of the same shot saved beside the photo (a camera's RAW); none for a frame the booth encodes.
    var companions: [PhotoStore.Companion] { get }
    /// Exposure time, when known.
    var exposureTime: Duration? { get }
    /// Analogue gain, when known.
    var analogueGain: Double? { get }
    /// Encodes the frame as JPEG (on the worker thread).
    func encodeJPEG(_ options: JPEGOptions) throws -> [UInt8]
    /// Gives the buffer back to the camera.
    func release()
}

extension PhotoFrame {
    /// A frame from a stream was not triggered: the capture picked it.
    package var triggerSent: Instant? { nil }
    /// A frame the booth encodes is its shot's one file.
    package var companions: [PhotoStore.Companion] { [] }
}
