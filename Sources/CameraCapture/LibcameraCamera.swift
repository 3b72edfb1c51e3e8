// LibcameraCamera: the camera, through the libcamera shim; the only Swift file that calls `booth_camera_*`.

import BoothSystem
import BoothTime
import LibcameraShim
import PhotoEncoding

/// An open libcamera camera streaming into a small buffer pool, owned by one event loop.
///
/// Poll `eventFileDescriptor`; when it is readable call `drainResults()` (which also keeps the
/// camera's buffers circulating, so call it promptly). Not thread-safe: use it from the loop's
/// thread only. `CapturedFrame`s it returns may go to other threads.
public final class LibcameraCamera {
    /// libcamera's id of the open camera.
    public let id: String
    /// Sensor model, e.g. "imx708"; empty if unknown.
    public let model: String
    private let handle: OpaquePointer

    /// The cameras libcamera sees, with their still-capture modes; [] when none or on failure.
    /// The corresponding C function is `booth_camera_list`.
    public static func list() -> [CameraInfo] {
        var cameras: UnsafeMutablePointer<booth_camera_info>? = nil
        var count = 0
        guard booth_camera_list(&cameras, &count) == 0, let cameras else { return [] }
        defer { booth_camera_list_free(cameras, count) }
        return (0..<count).map { index in
            var info = cameras[index]
            let modes = (0..<info.mode_count).map { modeIndex in
                var mode = info.modes[modeIndex]
                return CameraMode(
                    pixelFormat: text(&mode.pixel_format), width: Int(mode.width), height: Int(mode.height))
            }
            return CameraInfo(index: index, id: text(&info.id), model: text(&info.model), modes: modes)
        }
    }

    /// Opens the camera `selector` (index "0" or a libcamera id) at `width` x `height`
    /// (0 x 0 = largest still size; the camera may adjust it) and starts streaming.
    /// The corresponding C function is `booth_camera_open`.
    public init(selector: String, width: Int = 0, height: Int = 0, bufferCount: Int = 4) throws(CameraError) {
        var config = booth_camera_config()
        config.width = UInt32(clamping: width)
        config.height = UInt32(clamping: height)
        config.buffer_count = UInt32(clamping: bufferCount)
        guard let handle = booth_camera_open(selector, &config) else {
            let code = Errno.current
            let detail = String(cString: booth_camera_error_detail())
            throw Self.openError(selector: selector, code: code, detail: detail)
        }
        self.handle = handle
        self.id = String(cString: booth_camera_id(handle))
        self.model = String(cString: booth_camera_model(handle))
    }

    deinit { booth_camera_close(handle) }

    /// Readable when results may be ready; owned by the camera (poll it, never read or close it).
    public var eventFileDescriptor: FileDescriptor { FileDescriptor(rawValue: booth_camera_event_fd(handle)) }

    /// The scene's light level (lux) libcamera estimated for the latest completed frame; nil when none
    /// was reported (no algorithm estimates it, or no frame yet). Updated by `drainResults`.
    public var latestLux: Double? {
        let lux = booth_camera_latest_lux(handle)
        return lux >= 0 ? Double(lux) : nil
    }

    /// Paces the stream: idle, frames nobody asked for are parked (not given back) and the event
    /// descriptor wakes the owner only when the camera has none left; `resume(count:)` gives some back.
    /// Not idle (the default): every frame goes back as it is drained (full rate). The corresponding C
    /// function is `booth_camera_set_idle`.
    public func setIdle(_ idle: Bool) {
        booth_camera_set_idle(handle, idle ? 1 : 0)
    }

    /// While idle: gives up to `count` parked frames' buffers back to the camera (the next frames).
    /// The corresponding C function is `booth_camera_resume`.
    @discardableResult
    public func resume(count: Int) -> Int {
        Int(booth_camera_resume(handle, Int32(clamping: count)))
    }

    /// Arms a capture: the first frame whose exposure starts at or after `trigger` (an instant on the
    /// kernel's CLOCK_MONOTONIC, the clock of libcamera's timestamps) is held and reported by
    /// `drainResults()` with `cookie`. The corresponding C function is `booth_camera_capture`.
    public func capture(trigger: Instant, cookie: UInt64) throws(CameraError) {
        guard booth_camera_capture(handle, trigger.kernelNanoseconds, cookie) == 0 else {
            let code = Errno.current
            if code.meansDeviceGone { throw .gone(camera: name) }
            throw .failed(
                camera: name, operation: "capture", errno: code.rawValue,
                detail: String(cString: booth_camera_error_detail()))
        }
    }

    /// Fails every armed capture whose trigger is more than `timeoutNanoseconds` before `now` with
    /// `.timeout` (reported by the next `drainResults()`). The caller owns the clock. Returns how many
    /// expired. The corresponding C function is `booth_camera_expire`.
    @discardableResult
    public func expireCaptures(now: Instant, timeout: Duration) -> Int {
        Int(booth_camera_expire(handle, now.kernelNanoseconds, UInt64(clamping: timeout.inNanoseconds)))
    }

    /// Every result ready now; never blocks. Also requeues frames nobody asked for.
    /// The corresponding C function is `booth_camera_next_result`.
    public func drainResults() -> [CaptureResult] {
        var results: [CaptureResult] = []
        var result = booth_camera_result()
        while booth_camera_next_result(handle, &result) == 1 {
            results.append(convert(result))
        }
        return results
    }

    /// Gives a held buffer back to the camera; called once per frame by `CapturedFrame`.
    static func release(_ frame: OpaquePointer) {
        booth_frame_release(frame)
    }

    private var name: String { model.isEmpty ? id : "\(id) (\(model))" }

    private func convert(_ result: booth_camera_result) -> CaptureResult {
        switch Int(result.status) {
        case Int(BOOTH_CAMERA_RESULT_OK.rawValue):
            guard let frame = result.frame else { break }
            guard let format = Self.format(result.pixel_format) else {
                booth_frame_release(frame)
                break
            }
            let shimPlanes = [result.planes.0, result.planes.1, result.planes.2].prefix(Int(result.plane_count))
            let planes = shimPlanes.map {
                BorrowedPixelPlane(bytes: UnsafeRawBufferPointer(start: $0.data, count: $0.length), stride: $0.stride)
            }
            let captured = CapturedFrame(
                cookie: result.cookie, trigger: Instant(kernelNanoseconds: result.trigger_ns),
                sensorTime: Instant(kernelNanoseconds: result.sensor_timestamp_ns),
                timestampIsSensor: result.timestamp_is_sensor != 0, sequence: result.sequence,
                exposureTime: result.exposure_us >= 0 ? .microseconds(result.exposure_us) : nil,
                analogueGain: result.analogue_gain >= 0 ? Double(result.analogue_gain) : nil,
                lux: result.lux >= 0 ? Double(result.lux) : nil,
                width: Int(result.width), height: Int(result.height), format: format,
                buffer: HeldBuffer(handle: frame, planes: planes))
            return CaptureResult(cookie: result.cookie, outcome: .success(captured))
        case Int(BOOTH_CAMERA_RESULT_CAMERA_GONE.rawValue):
            return CaptureResult(cookie: result.cookie, outcome: .failure(.gone(camera: name)))
        case Int(BOOTH_CAMERA_RESULT_TIMEOUT.rawValue):
            return CaptureResult(
                cookie: result.cookie, outcome: .failure(.timeout(camera: name, cookie: result.cookie)))
        default:
            break
        }
        return CaptureResult(
            cookie: result.cookie,
            outcome: .failure(
                .failed(
                    camera: name, operation: "capture", errno: Errno.ioError.rawValue,
                    detail: "the camera could not deliver this frame")))
    }

    private static func format(_ value: Int32) -> PixelFormat? {
        switch UInt32(bitPattern: value) {
        case BOOTH_PIXEL_FORMAT_YUV420.rawValue: .yuv420
        case BOOTH_PIXEL_FORMAT_NV12.rawValue: .nv12
        case BOOTH_PIXEL_FORMAT_RGB24.rawValue: .rgb24
        case BOOTH_PIXEL_FORMAT_BGR24.rawValue: .bgr24
        case BOOTH_PIXEL_FORMAT_YUYV.rawValue: .yuyv
        case BOOTH_PIXEL_FORMAT_MJPEG.rawValue: .mjpeg
        default: nil
        }
    }

    private static func openError(selector: String, code: Errno, detail: String) -> CameraError {
        switch code {
        case let missing where missing.meansDeviceMissing:
            let available = list().map(\.description)
            // A pipeline that another process streams may not be listed at all (vimc): say who holds it.
            let holders = CameraHolder.find()
            if available.isEmpty, !holders.isEmpty {
                return .busy(camera: "\(selector) (\(holders.map(\.description).joined(separator: "; ")))")
            }
            return .noCamera(selector: selector, available: available)
        case .resourceBusy:
            let camera = list().first { $0.id == selector || String($0.index) == selector }
            return .busy(camera: camera?.description ?? selector)
        default:
            return .failed(camera: selector, operation: "open", errno: code.rawValue, detail: detail)
        }
    }

    /// A Swift string from a fixed-size C char array (a tuple in Swift).
    private static func text<T>(_ tuple: inout T) -> String {
        withUnsafeBytes(of: &tuple) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}
