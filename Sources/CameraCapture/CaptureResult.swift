// CaptureResult: the outcome of one armed capture.

/// A captured frame or the reason there is none, tagged with the capture's cookie.
public struct CaptureResult: Sendable {
    /// The cookie passed to `LibcameraCamera.capture` (0 for an unsolicited `.gone`).
    public var cookie: UInt64
    /// The frame (release it exactly once), or why the capture failed.
    public var outcome: Result<CapturedFrame, CameraError>

    /// A result for `cookie`.
    public init(cookie: UInt64, outcome: Result<CapturedFrame, CameraError>) {
        self.cookie = cookie
        self.outcome = outcome
    }
}
