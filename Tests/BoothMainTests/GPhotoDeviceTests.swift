// GPhotoDeviceTests: the booth's sequence with a camera over USB (libgphoto2's virtual camera), in the real loop.
import BoothCore
import BoothTestSupport
import GPhotoCapture
import PhotoEncoding
import Synchronization
import Testing

@testable import BoothMain

@Suite(
    .timeLimit(.minutes(3)), .serialized, .offCooperativePool,
    .enabled(if: VirtualCamera.isSelected, "needs Tests/VirtualCamera/prepare's environment"))
struct GPhotoDeviceTests {
    @Test func aPressSavesTheCamerasOwnJPEGByteForByteAndPutsItsTargetBack() throws {
        try VirtualCamera.exclusively {
            let photo = try VirtualCamera.photo()
            try GPhotoCamera(VirtualCamera.found).set("capturetarget", to: "Internal RAM")
            var camera: GPhotoDevice?
            let (events, photos) = try SimulatedBoothTests().run(
                "press\nwait 4\nquit\n",
                camera: {
                    camera = try? GPhotoDevice($0, selector: "0", keepOnCard: true)
                    return camera!
                })
            let ready = try #require(events.first { $0.type == "ready" })
            #expect(ready.fields["camera"] == "gphoto2:Nikon DSC D750 (usb:001,001)")
            let states = events.filter { $0.type == "state" }.map { $0.fields["to"]! }
            #expect(states == ["playingSound", "countingDown", "capturing", "processing", "idle"])
            // The trigger goes out at the countdown's end or after it, and the camera acknowledges it after that.
            let capture = try #require(events.first { $0.type == "capture" })
            let countdownEnd = try #require(Int(capture.fields["trigger_us"] ?? ""))
            let sent = try #require(Int(capture.fields["sent_us"] ?? ""), "no sent_us in \(capture.fields)")
            let acknowledged = try #require(Int(capture.fields["sensor_us"] ?? ""))
            #expect(countdownEnd <= sent && sent <= acknowledged)
            let saved = events.filter { $0.type == "photoSaved" }
            #expect(saved.count == 1)
            let path = try #require(saved.first?.fields["path"])
            #expect(path.hasPrefix(photos))
            // The camera's bytes as they are: no crop, no re-encode, its own EXIF.
            #expect(readFile(path) == photo)
            // The capture target the booth set to the card while it ran is the camera's own again.
            #expect(try GPhotoCamera(VirtualCamera.found).setting("capturetarget") == "Internal RAM")
            _ = camera
        }
    }

    @Test func aCameraNotFoundRefusesThePressAndNamesWhatIsThere() throws {
        try VirtualCamera.exclusively {
            _ = try VirtualCamera.photo()
            let (events, _) = try SimulatedBoothTests().run(
                "press\nwait 3\nquit\n",
                camera: { try! GPhotoDevice($0, selector: "Canon EOS R5", keepOnCard: true) })
            #expect(
                events.contains {
                    $0.type == "setting" && $0.fields["name"] == "warning.cameraUnavailable"
                        && $0.fields["value"] == "true"
                })
            #expect(events.filter { $0.type == "photoSaved" }.isEmpty)
            let states = events.filter { $0.type == "state" }.map { $0.fields["to"]! }
            #expect(!states.contains("capturing"))
        }
    }
}

/// The booth with scripted cameras over USB: a camera that goes away and comes back.
@Suite(.timeLimit(.minutes(3)), .serialized, .offCooperativePool)
struct GPhotoDeviceScriptedTests {
    @Test func aCameraUnpluggedAtTheShutterAbortsThatPhotoAndTheBoothTakesTheNextWhenItIsBack() throws {
        let photo = try JPEGEncoder.encode(TestPattern.render(width: 64, height: 48, text: "back"))
        let found = GPhotoCamera.Found(model: "Canon EOS 2000D", port: "usb:001,005", canCapture: true)
        let unplugged = ScriptedCamera(triggerError: .gone(camera: "Canon EOS 2000D (usb:001,005)"))
        let back = ScriptedCamera(
            events: [.fileAdded(folder: "/DCIM/100CANON", name: "IMG_0002.JPG"), .captureComplete],
            files: ["IMG_0002.JPG": photo])
        let opens = Mutex(0)
        let session = GPhotoSession(
            selector: "auto", keepOnCard: true, find: { [found] in [found] },
            open: { _ in
                opens.withLock { count in
                    count += 1
                    return count == 1 ? unplugged : back
                }
            })
        let (events, _) = try SimulatedBoothTests().run(
            "press\nwait 7\npress\nwait 4\nquit\n", camera: { try! GPhotoDevice($0, session: session) })
        let warnings = events.filter { $0.type == "setting" && $0.fields["name"] == "warning.cameraUnavailable" }
        #expect(warnings.map { $0.fields["value"] } == ["true", "false"])
        #expect(events.contains { $0.type == "error" && $0.fields["message"]!.contains("went away (unplugged") })
        let saved = events.filter { $0.type == "photoSaved" }
        #expect(saved.count == 1)
        #expect(readFile(try #require(saved.first?.fields["path"])) == photo)
        #expect(unplugged.triggers == 1)
        #expect(back.triggers == 1)
        #expect(opens.withLock { $0 } == 2)
    }
}
