// GPhotoSessionTests: the booth's use of a camera over USB: which one, what it changes and keeps, how it fails.
import BoothTestSupport
import BoothTime
import Foundation
import GPhotoCapture
import Testing

@Suite struct GPhotoSessionTests {
    private let phone = GPhotoCamera.Found(model: "MTP Device", port: "usb:001,004", canCapture: false)
    private let canon = GPhotoCamera.Found(model: "Canon EOS 2000D", port: "usb:001,005", canCapture: true)
    private let nikon = GPhotoCamera.Found(model: "Nikon DSC D750", port: "usb:001,006", canCapture: true)

    @Test func autoTakesTheFirstCameraThatCanTakePhotosNotAPhone() {
        for selector in ["", "auto", "0"] {
            #expect(GPhotoSession.pick(selector, from: [phone, canon, nikon]) == canon)
        }
        #expect(GPhotoSession.pick("auto", from: [phone]) == nil)
        #expect(GPhotoSession.pick("auto", from: []) == nil)
    }

    @Test func aModelOrAPortPicksThatCamera() {
        #expect(GPhotoSession.pick("Nikon DSC D750", from: [canon, nikon]) == nikon)
        #expect(GPhotoSession.pick("usb:001,006", from: [canon, nikon]) == nikon)
        #expect(GPhotoSession.pick("usb:001,009", from: [canon, nikon]) == nil)
        // A phone named outright is still no camera.
        #expect(GPhotoSession.pick("MTP Device", from: [phone, canon]) == nil)
    }

    @Test func withNoCameraTheErrorNamesWhatWasFoundInstead() {
        let session = GPhotoSession(selector: "auto", keepOnCard: true, find: { [phone] in [phone] })
        guard case .failure(let error) = session.open() else {
            Issue.record("a phone alone opened as a camera")
            return
        }
        #expect(error == .noCamera(selector: "auto", found: ["MTP Device (usb:001,004) (cannot take photos)"]))
        #expect(error.description.contains("finds only MTP Device (usb:001,004) (cannot take photos)."))
        let named = GPhotoSession(
            selector: "Canon EOS R5", keepOnCard: true, find: { [phone, canon] in [phone, canon] })
        guard case .failure(let other) = named.open() else {
            Issue.record("a camera not named opened")
            return
        }
        #expect(
            other.description == "no camera \"Canon EOS R5\" over USB; libgphoto2 finds MTP Device (usb:001,004) "
                + "(cannot take photos); Canon EOS 2000D (usb:001,005). Set camera.id to one of these models or ports, "
                + "or to \"0\" for the first camera that can take photos.")
        let none = GPhotoSession(selector: "auto", keepOnCard: true, find: { [] })
        guard case .failure(let nothing) = none.open() else {
            Issue.record("nothing opened as a camera")
            return
        }
        #expect(nothing.description.contains("USB mode to PTP or PC"))
    }
}

/// The session against the virtual camera: what the booth changes on it and puts back, and what it keeps on it.
@Suite(
    .serialized, .offCooperativePool,
    .enabled(if: VirtualCamera.isSelected, "needs Tests/VirtualCamera/prepare's environment"))
struct GPhotoSessionVirtualCameraTests {
    @Test func photosKeptOnTheCardTargetTheCardUntilTheBoothStops() throws {
        try VirtualCamera.exclusively {
            let photo = try VirtualCamera.photo()
            try setTarget("Internal RAM")
            let session = GPhotoSession(selector: "auto", keepOnCard: true)
            let opened = try session.open().get()
            #expect(opened.name == "Nikon DSC D750 (usb:001,001)")
            #expect(opened.note == "capture target: Memory card, was Internal RAM (put back when the booth stops)")
            #expect(session.battery == "50%")
            let shot = try session.capture(within: .seconds(5)).get()
            #expect(shot.bytes == photo)
            #expect(shot.note == nil)
            // Kept: the camera still has the file.
            let camera = try GPhotoCamera(VirtualCamera.found)
            let (folder, name) = split(shot.file)
            #expect(camera.setting("capturetarget") == "Memory card")
            #expect(try camera.download(folder: folder, name: name) == photo)
            session.close()
            #expect(camera.setting("capturetarget") == "Internal RAM")
        }
    }

    @Test func photosNotKeptAreDeletedAndTheTargetIsLeftAlone() throws {
        try VirtualCamera.exclusively {
            let photo = try VirtualCamera.photo()
            try setTarget("Internal RAM")
            let session = GPhotoSession(selector: "Nikon DSC D750", keepOnCard: false)
            #expect(try session.open().get().note == nil)
            let shot = try session.capture(within: .seconds(5)).get()
            #expect(shot.bytes == photo)
            let camera = try GPhotoCamera(VirtualCamera.found)
            let (folder, name) = split(shot.file)
            #expect(throws: GPhotoError.self) { try camera.download(folder: folder, name: name) }
            #expect(camera.setting("capturetarget") == "Internal RAM")
            #expect(session.keepAwake() == nil)
            session.close()
        }
    }

    private func setTarget(_ target: String) throws {
        try GPhotoCamera(VirtualCamera.found).set("capturetarget", to: target)
    }

    private func split(_ path: String) -> (String, String) {
        let slash = path.lastIndex(of: "/")!
        return (String(path[..<slash]), String(path[path.index(after: slash)...]))
    }
}

/// The session against scripted cameras: what the virtual camera cannot do.
@Suite struct GPhotoSessionScriptedTests {
    private let found = GPhotoCamera.Found(model: "Canon EOS 2000D", port: "usb:001,005", canCapture: true)

    private func session(_ camera: ScriptedCamera, keepOnCard: Bool = true) throws -> GPhotoSession {
        let session = GPhotoSession(
            selector: "auto", keepOnCard: keepOnCard, find: { [found] in [found] }, open: { _ in camera })
        _ = try session.open().get()
        return session
    }

    @Test func aDeviceThatOpensAndCannotTakePhotosIsPassedOverForTheNextCamera() throws {
        let phoneFound = GPhotoCamera.Found(model: "USB PTP Class Camera", port: "usb:001,004", canCapture: true)
        let phone = ScriptedCamera(canTakePhotos: false)
        let camera = ScriptedCamera()
        let session = GPhotoSession(
            selector: "auto", keepOnCard: false, find: { [phoneFound, found] in [phoneFound, found] },
            open: { candidate in candidate.port == "usb:001,004" ? phone : camera })
        #expect(try session.open().get().name == "Canon EOS 2000D (usb:001,005)")
        _ = session.capture(within: .seconds(0))
        #expect(camera.triggers == 1)
        #expect(phone.triggers == 0)
        let alone = GPhotoSession(
            selector: "auto", keepOnCard: false, find: { [phoneFound] in [phoneFound] }, open: { _ in phone })
        #expect(
            throws: GPhotoError.noCamera(
                selector: "auto", found: ["USB PTP Class Camera (usb:001,004) (cannot take photos)"])
        ) {
            try alone.open().get()
        }
    }

    @Test func aBatteryIsLowAt20PercentOrWhenTheCameraSaysSo() {
        for low in ["20%", "5%", "0%", " 15 % ", "Low", "Empty", "battery exhausted"] {
            #expect(GPhotoSession.isLow(battery: low), "\(low)")
        }
        for fine in ["21%", "50%", "100%", "Full", "AC", "", nil] as [String?] {
            #expect(!GPhotoSession.isLow(battery: fine), "\(fine ?? "nil")")
        }
    }

    @Test func theBatteryAndTheFreeSpaceAreReadWhenItOpens() throws {
        let camera = ScriptedCamera(settings: ["batterylevel": "20%"])
        camera.free = 3 << 30
        let opened = try session(camera)
        #expect(opened.battery == "20%")
        #expect(opened.freeBytes == 3 << 30)
        let unknown = try session(ScriptedCamera())
        #expect(unknown.battery == nil && unknown.freeBytes == nil)
    }

    @Test func focusDrivesTheAutofocusWhereTheCameraHasOne() throws {
        let camera = ScriptedCamera(settings: ["autofocusdrive": "0"])
        #expect(try session(camera).focus() == nil)
        #expect(camera.sets == [ScriptedCamera.Setting("autofocusdrive", "1")])
        let manual = ScriptedCamera()
        #expect(try session(manual).focus() == nil)
        #expect(manual.sets.isEmpty)
        let refusing = ScriptedCamera(settings: ["autofocusdrive": "0"], refuseSets: true)
        #expect(try session(refusing).focus()?.hasPrefix("focusing: camera Canon EOS 2000D") == true)
    }

    @Test func rawPlusJPEGGivesTheJPEGAndDeletesBothWhenNotKept() throws {
        let camera = ScriptedCamera(
            events: [
                .other, .fileAdded(folder: "/DCIM/100CANON", name: "IMG_0001.CR2"),
                .fileAdded(folder: "/DCIM/100CANON", name: "IMG_0001.JPG"), .captureComplete,
            ],
            files: ["IMG_0001.CR2": [1, 2], "IMG_0001.JPG": [0xFF, 0xD8, 0xFF, 0xD9]])
        let shot = try session(camera, keepOnCard: false).capture(within: .seconds(5)).get()
        #expect(shot.bytes == [0xFF, 0xD8, 0xFF, 0xD9])
        #expect(shot.file == "/DCIM/100CANON/IMG_0001.JPG")
        #expect(camera.deleted == ["IMG_0001.CR2", "IMG_0001.JPG"])
        #expect(camera.triggers == 1)
        // Deleted from the camera, the RAW comes along (it would be lost).
        #expect(shot.others.map(\.name) == ["IMG_0001.CR2"])
        #expect(shot.others.map(\.bytes) == [[1, 2]])
    }

    @Test func rawPlusJPEGKeptOnTheCardLeavesTheRAWThere() throws {
        let camera = ScriptedCamera(
            events: [
                .fileAdded(folder: "/DCIM/100CANON", name: "IMG_0005.JPG"),
                .fileAdded(folder: "/DCIM/100CANON", name: "IMG_0005.CR2"), .captureComplete,
            ],
            files: ["IMG_0005.CR2": [1, 2], "IMG_0005.JPG": [0xFF, 0xD8, 0xFF, 0xD9]])
        let shot = try session(camera, keepOnCard: true).capture(within: .seconds(5)).get()
        #expect(shot.others.isEmpty)
        #expect(camera.deleted.isEmpty)
    }

    @Test func aRAWAloneStaysOnTheCameraEvenWhenNothingIsKept() throws {
        let camera = ScriptedCamera(
            events: [.fileAdded(folder: "/DCIM", name: "IMG_0007.NEF")], files: ["IMG_0007.NEF": [1, 2]])
        let result = try session(camera, keepOnCard: false).capture(within: .seconds(1))
        #expect(throws: GPhotoError.noJPEG(camera: "Canon EOS 2000D (usb:001,005)", file: "/DCIM/IMG_0007.NEF")) {
            try result.get()
        }
        #expect(camera.deleted.isEmpty, "the shot's only file was deleted")
    }

    @Test func aRAWThatFailsToDownloadStaysOnTheCamera() throws {
        let camera = ScriptedCamera(
            events: [
                .fileAdded(folder: "/DCIM", name: "IMG_0006.NEF"), .fileAdded(folder: "/DCIM", name: "IMG_0006.JPG"),
                .captureComplete,
            ],
            files: ["IMG_0006.JPG": [0xFF, 0xD8, 0xFF, 0xD9]])
        let shot = try session(camera, keepOnCard: false).capture(within: .seconds(5)).get()
        #expect(shot.others.isEmpty)
        #expect(camera.deleted == ["IMG_0006.JPG"], "a RAW not downloaded is not deleted")
        #expect(shot.note?.contains("/DCIM/IMG_0006.NEF stays on the camera") == true)
    }

    @Test func theTriggerIsTimedWhenSentAndWhenTheCameraAcknowledgedIt() throws {
        // Mutation: both stamped after the trigger returns (the booth's share of the shutter lag hidden in the camera's).
        let clock = ManualClock(at: Instant(nanoseconds: 5_000_000_000))
        let camera = ScriptedCamera(
            events: [.fileAdded(folder: "/DCIM", name: "IMG_0004.JPG")], files: ["IMG_0004.JPG": [9]])
        camera.onTrigger = { clock.advance(by: .milliseconds(3)) }
        let session = GPhotoSession(
            selector: "auto", keepOnCard: true, clock: clock, find: { [found] in [found] }, open: { _ in camera })
        _ = try session.open().get()
        let shot = try session.capture(within: .seconds(1)).get()
        #expect(shot.sent == Instant(nanoseconds: 5_000_000_000))
        #expect(shot.acknowledged == Instant(nanoseconds: 5_003_000_000))
    }

    @Test func keptFilesStayOnTheCamera() throws {
        let camera = ScriptedCamera(
            events: [.fileAdded(folder: "/DCIM", name: "IMG_0002.jpg")], files: ["IMG_0002.jpg": [7]])
        #expect(try session(camera).capture(within: .seconds(1)).get().bytes == [7])
        #expect(camera.deleted.isEmpty)
    }

    @Test func aRAWAloneIsRefusedWithTheFix() throws {
        let camera = ScriptedCamera(events: [.fileAdded(folder: "/DCIM", name: "IMG_0003.NEF")], files: [:])
        let result = try session(camera).capture(within: .seconds(1))
        #expect(throws: GPhotoError.noJPEG(camera: "Canon EOS 2000D (usb:001,005)", file: "/DCIM/IMG_0003.NEF")) {
            try result.get()
        }
        #expect(GPhotoError.noJPEG(camera: "C", file: "F").description.contains("RAW+JPEG"))
    }

    @Test func noFileInTimeIsNoPhotoAndTheCameraStaysOpen() throws {
        let camera = ScriptedCamera(events: [])
        let session = try session(camera)
        #expect(throws: GPhotoError.noPhoto(camera: "Canon EOS 2000D (usb:001,005)", within: .seconds(1))) {
            try session.capture(within: .seconds(1)).get()
        }
        #expect(camera.waited >= 1)
        #expect(camera.triggers == 1)
        // Still open: the next capture triggers again.
        _ = session.capture(within: .seconds(1))
        #expect(camera.triggers == 2)
    }

    @Test func aFullCardIsSaidAndAnUnpluggedCameraIsClosedAndLookedForAgain() throws {
        let full = ScriptedCamera(triggerError: .cardFull(camera: "Canon EOS 2000D (usb:001,005)"))
        #expect(throws: GPhotoError.cardFull(camera: "Canon EOS 2000D (usb:001,005)")) {
            try self.session(full).capture(within: .seconds(1)).get()
        }
        var opens = 0
        let gone = ScriptedCamera(triggerError: .gone(camera: "Canon EOS 2000D (usb:001,005)"))
        let session = GPhotoSession(
            selector: "auto", keepOnCard: true, find: { [found] in [found] },
            open: { _ in
                opens += 1
                return gone
            })
        _ = try session.open().get()
        #expect(throws: GPhotoError.gone(camera: "Canon EOS 2000D (usb:001,005)")) {
            try session.capture(within: .seconds(1)).get()
        }
        // Closed: a capture now says so without touching the camera, and `open` opens it anew.
        #expect(throws: GPhotoError.gone(camera: "auto")) { try session.capture(within: .seconds(1)).get() }
        #expect(gone.triggers == 1)
        _ = try session.open().get()
        #expect(opens == 2)
    }

    /// A Canon EOS (one with `eosremoterelease`) is pressed all the way at once and let go, not triggered: the trigger
    /// would half-press and wait for focus again. Mutation: triggering every camera leaves the Canon's trigger count
    /// at 1 and its release unset.
    @Test func aCanonIsPressedAndLetGoWithoutFocusingAgain() throws {
        let camera = ScriptedCamera(
            settings: ["eosremoterelease": "None"],
            events: [.fileAdded(folder: "/DCIM/100CANON", name: "IMG_0007.JPG"), .captureComplete],
            files: ["IMG_0007.JPG": [0xFF, 0xD8, 0xFF, 0xD9]])
        let shot = try session(camera).capture(within: .seconds(5)).get()
        #expect(shot.bytes == [0xFF, 0xD8, 0xFF, 0xD9] && shot.note == nil)
        #expect(camera.triggers == 0)
        #expect(
            camera.sets == [
                ScriptedCamera.Setting("eosremoterelease", "Immediate"),
                ScriptedCamera.Setting("eosremoterelease", "Release Full"),
            ])
    }

    /// A Canon that refuses the immediate press (its driver speaks another language) is triggered instead; one that
    /// took the press but refuses to let go has taken its shot: the release is noted, never answered with a second
    /// press.
    @Test func aCanonRefusingThePressIsTriggeredAndOneNotLetGoIsNeverPressedTwice() throws {
        let refusing = ScriptedCamera(
            settings: ["eosremoterelease": "None"], events: [.fileAdded(folder: "/DCIM", name: "IMG_0008.JPG")],
            files: ["IMG_0008.JPG": [8]])
        refusing.refuses = { key, value in key == "eosremoterelease" && value == "Immediate" }
        #expect(try session(refusing).capture(within: .seconds(1)).get().bytes == [8])
        #expect(refusing.triggers == 1 && refusing.sets.isEmpty)

        let held = ScriptedCamera(
            settings: ["eosremoterelease": "None"], events: [.fileAdded(folder: "/DCIM", name: "IMG_0009.JPG")],
            files: ["IMG_0009.JPG": [9]])
        held.refuses = { key, value in key == "eosremoterelease" && value == "Release Full" }
        let shot = try session(held).capture(within: .seconds(1)).get()
        #expect(shot.bytes == [9])
        #expect(held.triggers == 0 && held.sets == [ScriptedCamera.Setting("eosremoterelease", "Immediate")])
        #expect(shot.note?.contains("the shutter was not let go") == true, "\(shot.note ?? "no note")")
    }
}
