// CameraErrorTests: camera failures named with the fix.
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
}
