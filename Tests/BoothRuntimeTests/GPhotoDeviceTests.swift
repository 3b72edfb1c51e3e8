// GPhotoDeviceTests: the booth's sequence with a camera over USB (libgphoto2's virtual camera), in the real loop.
import BoothCore
import BoothTestSupport
import GPhotoCapture
import PhotoEncoding
import PhotoStore
import Synchronization
import Testing

@testable import BoothRuntime

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

extension GPhotoDeviceTests {
    /// A burst and its retake with a camera over USB, as with the camera module: three shots, each the camera's own
    /// bytes; the long press in the review window moves all three aside, and the retake's three are kept.
    @Test func aBurstAndItsRetakeWorkAsWithTheCameraModule() throws {
        try VirtualCamera.exclusively {
            let photo = try VirtualCamera.photo()
            var settings = BoothSettings()
            settings.burstCount = 3
            let (events, photos) = try SimulatedBoothTests().run(
                "press\nwait 4\nlong-press\nwait 5\nquit\n", settings: settings,
                camera: { try! GPhotoDevice($0, selector: "0", keepOnCard: true) })
            let saved = events.filter { $0.type == "photoSaved" }.compactMap { $0.fields["path"] }
            #expect(saved.count == 6)
            #expect(events.filter { $0.type == "captureRequested" }.count == 6)
            let discarded = try PhotoStore.fileNames(in: "\(photos)/discarded").sorted()
            #expect(discarded == saved.prefix(3).map { String($0.split(separator: "/").last!) }.sorted())
            let kept = try PhotoStore.fileNames(in: photos).filter { $0.hasSuffix(".jpg") }.sorted()
            #expect(kept == saved.suffix(3).map { String($0.split(separator: "/").last!) }.sorted())
            for name in kept { #expect(readFile("\(photos)/\(name)") == photo) }
        }
    }
}

/// The booth with scripted cameras over USB: a camera that goes away and comes back.
@Suite(.timeLimit(.minutes(3)), .serialized, .offCooperativePool)
struct GPhotoDeviceScriptedTests {
    /// A session whose only camera is `camera` (a Canon on usb:001,005), as libgphoto2 would find and open it.
    private func session(_ camera: ScriptedCamera) -> GPhotoSession {
        let found = GPhotoCamera.Found(model: "Canon EOS 2000D", port: "usb:001,005", canCapture: true)
        return GPhotoSession(selector: "auto", keepOnCard: true, find: { [found] in [found] }, open: { _ in camera })
    }

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

    /// A camera unplugged while its photo downloads: that shot fails (the sequence aborts to idle), nothing of it is in
    /// the store, the camera warning shows, and it is looked for again.
    @Test func aCameraUnpluggedMidDownloadSavesNothingAndIsLookedForAgain() throws {
        let camera = ScriptedCamera(
            events: [.fileAdded(folder: "/DCIM", name: "IMG_0001.JPG")], files: ["IMG_0001.JPG": [0xFF, 0xD8]])
        camera.downloadError = .gone(camera: "Canon EOS 2000D (usb:001,005)")
        let found = GPhotoCamera.Found(model: "Canon EOS 2000D", port: "usb:001,005", canCapture: true)
        let opens = Mutex(0)
        let session = GPhotoSession(
            selector: "auto", keepOnCard: true, find: { [found] in [found] },
            open: { _ throws(GPhotoError) in
                let count = opens.withLock { count in
                    count += 1
                    return count
                }
                if count > 1 { throw GPhotoError.gone(camera: "Canon EOS 2000D (usb:001,005)") }
                return camera
            })
        let (events, photos) = try SimulatedBoothTests().run(
            "press\nwait 6\nquit\n", camera: { try! GPhotoDevice($0, session: session) })
        #expect(events.filter { $0.type == "photoSaved" }.isEmpty)
        #expect(events.contains { $0.type == "error" && $0.fields["message"]!.contains("went away (unplugged") })
        let states = events.filter { $0.type == "state" }.map { $0.fields["to"]! }
        #expect(states.last == "idle" && states.contains("aborted"))
        #expect(
            events.contains {
                $0.type == "setting" && $0.fields["name"] == "warning.cameraUnavailable" && $0.fields["value"] == "true"
            })
        // Looked for again (every 2 s) after the loss.
        #expect(opens.withLock { $0 } >= 2)
        #expect(camera.triggers == 1)
        // Nothing partial, nothing at all, in the store.
        #expect(try PhotoStore.fileNames(in: photos).filter { $0.contains("HeyLook") }.isEmpty)
    }

    /// RAW+JPEG with nothing kept on the camera: the JPEG is the photo, the RAW is saved beside it in the store under
    /// its name (the camera's bytes), no photo of its own.
    @Test func aRAWIsSavedBesideThePhotoWhenTheCameraKeepsNothing() throws {
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xD9]
        let raw: [UInt8] = [0x49, 0x49, 0x2A, 0x00, 1, 2, 3]
        let camera = ScriptedCamera(
            events: [
                .fileAdded(folder: "/DCIM", name: "IMG_0001.CR2"), .fileAdded(folder: "/DCIM", name: "IMG_0001.JPG"),
                .captureComplete,
            ],
            files: ["IMG_0001.CR2": raw, "IMG_0001.JPG": jpeg])
        let found = GPhotoCamera.Found(model: "Canon EOS 2000D", port: "usb:001,005", canCapture: true)
        let session = GPhotoSession(
            selector: "auto", keepOnCard: false, find: { [found] in [found] }, open: { _ in camera })
        let (events, photos) = try SimulatedBoothTests().run(
            "press\nwait 4\nquit\n", camera: { try! GPhotoDevice($0, session: session) })
        let path = try #require(events.first { $0.type == "photoSaved" }?.fields["path"])
        #expect(readFile(path) == jpeg)
        #expect(readFile(String(path.dropLast(3)) + "cr2") == raw)
        #expect(try PhotoStore.inspect(directory: photos).map(\.name) == [String(path.split(separator: "/").last!)])
        #expect(camera.deleted.sorted() == ["IMG_0001.CR2", "IMG_0001.JPG"])
    }

    /// A camera whose battery is low shows it on the LEDs (the last LED, 3 blinks) from the start; charged, it ends at
    /// the next minute's reading. Presses are still taken meanwhile.
    @Test func aLowBatteryIsShownUntilTheCameraSaysOtherwise() throws {
        let camera = ScriptedCamera(
            settings: ["batterylevel": "15%"],
            events: [.fileAdded(folder: "/DCIM", name: "IMG_0001.JPG"), .captureComplete],
            files: ["IMG_0001.JPG": [0xFF, 0xD8, 0xFF, 0xD9]])
        let session = session(camera)
        let (events, _) = try SimulatedBoothTests().run(
            "press\nwait 40\nwait 30\nquit\n", fast: true,
            camera: { context in
                context.loop.schedule(at: context.loop.now().advanced(by: .seconds(30))) {
                    camera.change("batterylevel", to: "80%")
                }
                return try! GPhotoDevice(context, session: session)
            }, stopAfter: .seconds(600))
        let low = events.filter { $0.type == "setting" && $0.fields["name"] == "warning.cameraBatteryLow" }
        #expect(low.map { $0.fields["value"] } == ["true", "false"])
        #expect(events.filter { $0.type == "photoSaved" }.count == 1)
        let shown = try #require(low.first.flatMap { Int($0.fields["t_us"] ?? "") })
        let ended = try #require(low.last.flatMap { Int($0.fields["t_us"] ?? "") })
        #expect(ended - shown >= 60_000_000)
    }

    /// The battery is read when the camera opens and every minute while the booth is idle (which notices a camera
    /// gone before the next press), never while a sequence runs: the shutter never waits behind it.
    @Test func theBatteryIsReadEveryMinuteWhileIdleAndNeverDuringASequence() throws {
        func reads(_ script: String) throws -> Int {
            let camera = ScriptedCamera(
                settings: ["batterylevel": "80%"],
                events: [.fileAdded(folder: "/DCIM", name: "IMG_0001.JPG"), .captureComplete],
                files: ["IMG_0001.JPG": [0xFF, 0xD8, 0xFF, 0xD9]])
            let session = session(camera)
            _ = try SimulatedBoothTests().run(
                script, fast: true, camera: { try! GPhotoDevice($0, session: session) }, stopAfter: .seconds(600))
            return camera.reads["batterylevel", default: 0]
        }
        // Idle for 130 s: at opening, at 60 s and at 120 s.
        #expect(try reads("wait 130\nquit\n") == 3)
        // A sequence from 59.5 s (sound, countdown, capture, the review window) spans the minute: that read is
        // skipped; the one at 120 s is not. Mutation: reading whatever the booth does gives 3.
        #expect(try reads("wait 59.5\npress\nwait 70.5\nquit\n") == 2)
    }
}
