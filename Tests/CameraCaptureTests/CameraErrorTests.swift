// CameraErrorTests: camera failures named with the fix.
import Glibc
import Testing

@testable import CameraCapture

@Suite struct CameraErrorTests {
    @Test func everyMessageNamesTheCameraAndAFix() {
        let camera = "/base/imx708@1a (imx708)"
        let cases: [(CameraError, String)] = [
            (.noCamera(selector: "2", available: ["0: /base/imx708@1a (imx708)"]), "0: /base/imx708@1a"),
            (.busy(camera: camera), "fuser"),
            (.timeout(camera: camera, cookie: 7), "dmesg"),
            (.gone(camera: camera), "Reconnect"),
            (.failed(camera: camera, operation: "open", errno: 22, detail: "rejected 1x1-XYZ"), "rejected"),
        ]
        for (error, fix) in cases {
            #expect(error.description.contains(fix), "\(error)")
        }
        for (error, _) in cases.dropFirst() {
            #expect(error.description.contains(camera))
        }
    }

    @Test func aLibcameraFailureNamesTheStepAndErrnoOnce() {
        // The shim gives the step ("Camera::start(id)"); errno is named here, by ErrnoText, once.
        let error = CameraError.failed(camera: "vimc", operation: "open", errno: EBUSY, detail: "Camera::start(vimc)")
        #expect(
            error.description.hasPrefix(
                "camera vimc: open failed: Camera::start(vimc): Device or resource busy (EBUSY). "))
        #expect(error.description.ranges(of: "(EBUSY)").count == 1)
        let bare = CameraError.failed(camera: "vimc", operation: "capture", errno: EIO, detail: "")
        #expect(bare.description.hasPrefix("camera vimc: capture failed: Input/output error (EIO). "))
    }
}
