// CapturedFrame: a camera buffer held out of the capture rotation until it is released.

import BoothTime
import PhotoEncoding
import Synchronization

/// One captured frame, still in the camera's mmap'd buffer.
///
/// Rules: it may be sent to one worker thread and encoded there with `withPixelFrame`;
/// `release()` gives the buffer back to the camera and must be called once the pixels are no
/// longer needed (a second call does nothing; deinit releases a forgotten frame). `release()`
/// waits for a running `withPixelFrame` to finish, so memory is never unmapped under the
/// encoder; calling `release()` inside the `withPixelFrame` closure deadlocks. The camera keeps
/// at least two buffers for itself, so held frames beyond `bufferCount - 2` delay later captures.
public final class CapturedFrame: Sendable {
    /// The capture's cookie.
    public let cookie: UInt64
    /// The trigger the capture was armed with (the kernel's CLOCK_MONOTONIC).
    public let trigger: Instant
    /// Exposure start of the first row (libcamera SensorTimestamp, CLOCK_MONOTONIC).
    public let sensorTime: Instant
    /// False when the driver gave no SensorTimestamp and the buffer (readout) time was used.
    public let timestampIsSensor: Bool
    /// Driver frame sequence number.
    public let sequence: UInt32
    /// Exposure time, if the pipeline reported it.
    public let exposureTime: Duration?
    /// Analogue gain, if the pipeline reported it.
    public let analogueGain: Double?
    /// Estimated scene illuminance, if the pipeline reported it.
    public let lux: Double?
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Pixel layout.
    public let format: PixelFormat

    /// The shim's frame handle and plane mappings; nil handle once released.
    private let state: Mutex<HeldBuffer>

    init(
        cookie: UInt64, trigger: Instant, sensorTime: Instant, timestampIsSensor: Bool,
        sequence: UInt32, exposureTime: Duration?, analogueGain: Double?, lux: Double?, width: Int, height: Int,
        format: PixelFormat, buffer: HeldBuffer
    ) {
        self.cookie = cookie
        self.trigger = trigger
        self.sensorTime = sensorTime
        self.timestampIsSensor = timestampIsSensor
        self.sequence = sequence
        self.exposureTime = exposureTime
        self.analogueGain = analogueGain
        self.lux = lux
        self.width = width
        self.height = height
        self.format = format
        self.state = Mutex(buffer)
    }

    deinit { release() }

    /// Calls `body` with the frame's pixels in place (no copy), e.g. to feed `JPEGEncoder`.
    /// Traps if the frame was already released.
    public func withPixelFrame<R, E: Error>(_ body: (BorrowedPixelFrame) throws(E) -> R) throws(E) -> R {
        let result: Result<R, E> = state.withLock { buffer in
            guard buffer.handle != nil else { preconditionFailure("CapturedFrame \(cookie) used after release()") }
            let frame = BorrowedPixelFrame(width: width, height: height, format: format, planes: buffer.planes)
            do throws(E) {
                return .success(try body(frame))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// True once `release()` has run.
    public var isReleased: Bool { state.withLock { $0.handle == nil } }

    /// Returns the buffer to the camera. Safe from any thread; later calls do nothing.
    public func release() {
        state.withLock { buffer in
            if let handle = buffer.handle {
                LibcameraCamera.release(handle)
                buffer.handle = nil
                buffer.planes = []
            }
        }
    }
}

/// The shim's handle for a held buffer and where its planes are mapped.
///
/// `@unchecked Sendable` because it carries raw pointers; it is only read or changed inside
/// `CapturedFrame`'s mutex, which is what makes that safe.
struct HeldBuffer: @unchecked Sendable {
    var handle: OpaquePointer?
    var planes: [BorrowedPixelPlane]
}
