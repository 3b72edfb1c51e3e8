// GPhotoSession: the booth's use of a libgphoto2 camera, on the thread that owns it: open, focus, shoot, put back.
import BoothSystem
import BoothTime

/// What the booth does with a camera over USB, run on the one worker thread that owns it (every call blocks on USB):
/// finds and opens the camera, makes it write to its card when photos are kept there (and puts that back on `close`),
/// focuses, presses the shutter and downloads the JPEG it adds, and reads its battery between photos. It never runs on
/// the event loop. `Sendable` only to be handed to that thread: use it from one thread at a time.
public final class GPhotoSession: @unchecked Sendable {
    /// An opened camera, as the loop sees it.
    public struct Opened: Sendable, Equatable {
        /// "Canon EOS 2000D (usb:001,005)".
        public let name: String
        /// "Canon EOS 2000D".
        public let model: String
        /// What the booth changed on it, if anything ("capture target: Memory card, was Internal RAM").
        public let note: String?
        /// Its battery level as it said when opened ("75%"), nil when unknown.
        public let battery: String?
    }

    /// A file of the shot other than its JPEG (a RAW): its name on the camera ("IMG_0001.CR2") and bytes.
    public struct File: Sendable, Equatable {
        public let name: String
        public let bytes: [UInt8]
    }

    /// A photo the camera took.
    public struct Photo: Sendable, Equatable {
        /// The JPEG file's bytes, as the camera wrote them.
        public let bytes: [UInt8]
        /// The shot's other files (a RAW), downloaded when the camera keeps nothing (they would be lost); kept on the
        /// card, they stay there and this is empty.
        public let others: [File]
        /// Its name on the camera ("/store_00020001/DCIM/100CANON/IMG_0001.JPG").
        public let file: String
        /// Something worth a warning (a RAW left on the card the booth could not delete), if anything.
        public let note: String?
        /// When the booth sent the trigger, and when the camera acknowledged it (the session's clock).
        public let sent: Instant
        public let acknowledged: Instant
    }

    /// Which camera: "", "auto" or "0" for the first that can take photos, else its model or its port.
    public let selector: String
    /// Whether the camera keeps its files (on its card): otherwise each one is deleted once downloaded.
    public let keepOnCard: Bool
    private let finder: () -> [GPhotoCamera.Found]
    private let opener: (GPhotoCamera.Found) throws(GPhotoError) -> any GPhotoControl
    private let clock: any MonotonicClock
    private var camera: (any GPhotoControl)?
    /// What `open` answered for the open camera.
    private var opened: Opened?
    /// The capture target the camera had before the booth changed it, to put back.
    private var originalTarget: String?
    /// Whether the open camera's shutter is pressed and let go directly (a Canon EOS's `eosremoterelease`).
    private var releasesDirectly = false
    /// The camera's battery level as it last said ("75%"), nil when unknown.
    public private(set) var battery: String?
    /// The free space on the camera's cards when it was opened, in bytes; nil when it says none.
    public private(set) var freeBytes: Int64?

    /// A session on the camera `selector`, its waits timed on `clock`; `find` and `open` are libgphoto2's unless a
    /// test gives others.
    public init(
        selector: String, keepOnCard: Bool, clock: any MonotonicClock = KernelClock(),
        find: @escaping () -> [GPhotoCamera.Found] = GPhotoCamera.find,
        open: @escaping (GPhotoCamera.Found) throws(GPhotoError) -> any GPhotoControl = { found throws(GPhotoError) in
            try GPhotoCamera(found)
        }
    ) {
        self.selector = selector
        self.keepOnCard = keepOnCard
        finder = find
        opener = open
        self.clock = clock
    }

    /// The camera `selector` names among `found`: the first that can take photos for "", "auto" or "0" (the first, as
    /// libcamera's index 0 is), else the one whose model or port is `selector`; nil when none.
    public static func pick(_ selector: String, from found: [GPhotoCamera.Found]) -> GPhotoCamera.Found? {
        if isFirst(selector) { return found.first(where: \.canCapture) }
        return found.first { $0.canCapture && ($0.model == selector || $0.port == selector) }
    }

    /// Opens the camera (again, after `close` or a loss): the first that `selector` names and that, once open, says it
    /// can take photos (a device `find()` took for a camera by its USB class may be a phone). Photos kept on the card:
    /// the capture target is set to the card when the camera has one and is not on it. Open already: what it answered.
    public func open() -> Result<Opened, GPhotoError> {
        if camera != nil, let opened { return .success(opened) }
        var found = finder()
        for (index, candidate) in found.enumerated() where Self.pick(selector, from: [candidate]) != nil {
            let device: any GPhotoControl
            do throws(GPhotoError) {
                device = try opener(candidate)
            } catch {
                return .failure(error)
            }
            guard device.canTakePhotos else {
                found[index] = GPhotoCamera.Found(model: candidate.model, port: candidate.port, canCapture: false)
                continue
            }
            camera = device
            do throws(GPhotoError) {
                let note = try keepOnCard ? targetCard(device) : nil
                battery = device.setting("batterylevel")
                releasesDirectly = device.setting(Self.remoteRelease) != nil
                freeBytes = device.freeBytes()
                opened = Opened(name: device.name, model: device.model, note: note, battery: battery)
                return .success(opened!)
            } catch {
                camera = nil
                return .failure(error)
            }
        }
        return .failure(.noCamera(selector: selector, found: found.map(\.listed)))
    }

    /// Asks the camera to find focus now (its autofocus drive, where it has one), so the shutter fires at the
    /// countdown's end without hunting. Returns why it could not, if it has a drive and refused; a camera without one
    /// (manual focus, or none to drive) is left as it is.
    public func focus() -> String? {
        guard let camera, camera.setting("autofocusdrive") != nil else { return nil }
        do throws(GPhotoError) {
            try camera.set("autofocusdrive", to: "1")
            return nil
        } catch {
            return "focusing: \(error)"
        }
    }

    /// Presses the shutter and waits up to `within` for the JPEG the camera adds, downloads it whole and, unless
    /// photos are kept on the card, downloads any other file of the shot (a RAW) too and deletes them all from the
    /// camera. A camera that went away is closed (the next `open` looks for it again).
    public func capture(within: Duration) -> Result<Photo, GPhotoError> {
        guard let camera else { return .failure(.gone(camera: selector)) }
        do throws(GPhotoError) {
            let sent = clock.now()
            var notes: [String] = []
            if let note = try press(camera) { notes.append(note) }
            let acknowledged = clock.now()
            let deadline = acknowledged.advanced(by: within)
            var photo: (bytes: [UInt8], file: String)?
            var others: [String] = []
            var downloaded: [File] = []
            // What the camera may delete once the photo is in (photos not kept on the card): the files downloaded.
            var deletable: [(folder: String, name: String, path: String)] = []
            // Until the JPEG is in; then what else the shot adds (a RAW comes just before or after), for a moment.
            var until = deadline
            while true {
                let left = until.since(clock.now())
                guard left >= .milliseconds(1) else { break }
                let event = try camera.waitForEvent(within: left)
                guard case .fileAdded(let folder, let name) = event else {
                    if photo != nil, event == .captureComplete || event == .timeout { break }
                    // A driver that answers "nothing yet" at once (libgphoto2's virtual camera does) is asked again
                    // after a pause, not in a busy loop.
                    if event == .timeout { ThreadSleep.pause(for: .milliseconds(20)) }
                    continue
                }
                let path = folder.hasSuffix("/") ? folder + name : "\(folder)/\(name)"
                if photo == nil, Self.isJPEG(name) {
                    photo = (try camera.download(folder: folder, name: name), path)
                    until = min(deadline, clock.now().advanced(by: .seconds(1)))
                    deletable.append((folder, name, path))
                    continue
                }
                others.append(path)
                guard !keepOnCard else { continue }
                // Deleted from the camera with the photo: downloaded first, or left there when that fails.
                do throws(GPhotoError) {
                    downloaded.append(File(name: name, bytes: try camera.download(folder: folder, name: name)))
                    deletable.append((folder, name, path))
                } catch {
                    if case .gone = error { throw error }
                    notes.append("\(path) stays on the camera: \(error)")
                }
            }
            guard let photo else {
                // Nothing is deleted: a RAW alone stays on the camera.
                if let raw = others.first { return .failure(.noJPEG(camera: camera.name, file: raw)) }
                return .failure(.noPhoto(camera: camera.name, within: within))
            }
            for file in keepOnCard ? [] : deletable {
                do throws(GPhotoError) {
                    try camera.delete(folder: file.folder, name: file.name)
                } catch {
                    notes.append("\(file.path) stays on the camera: \(error)")
                }
            }
            return .success(
                Photo(
                    bytes: photo.bytes, others: downloaded, file: photo.file,
                    note: notes.isEmpty ? nil : notes.joined(separator: "; "), sent: sent, acknowledged: acknowledged))
        } catch {
            if case .gone = error { forget() }
            return .failure(error)
        }
    }

    /// A Canon EOS's remote release (`eosremoterelease`): its shutter pressed and let go directly.
    static let remoteRelease = "eosremoterelease"

    /// Fires the shutter at once. libgphoto2's trigger half-presses a Canon EOS and waits for it to focus before the
    /// full press, so a Canon is pressed all the way without that (`Immediate`) and let go (`Release Full`): focus
    /// was found during the countdown (`focus()`). Any other camera, or a Canon refusing the press (its driver's
    /// words in another language), is triggered. Once pressed, the shot is taken: a release refused is told back as a
    /// note, never answered with a second press.
    private func press(_ camera: any GPhotoControl) throws(GPhotoError) -> String? {
        guard releasesDirectly else {
            try camera.triggerCapture()
            return nil
        }
        do throws(GPhotoError) {
            try camera.set(Self.remoteRelease, to: "Immediate")
        } catch {
            try camera.triggerCapture()
            return nil
        }
        do throws(GPhotoError) {
            try camera.set(Self.remoteRelease, to: "Release Full")
            return nil
        } catch {
            return "the shutter was not let go: \(error)"
        }
    }

    /// Between photos: drains what the camera said and reads its battery level, so a camera that went away is noticed
    /// before the next press. Returns why the camera is lost, if it went away (it is closed then).
    public func keepAwake() -> String? {
        guard let camera else { return nil }
        do throws(GPhotoError) {
            // Whatever the camera said meanwhile (a photo taken with its own shutter button, settings it reports again
            // and again) is drained, a few events at most.
            for _ in 0..<20 {
                if try camera.waitForEvent(within: .milliseconds(10)) == .timeout { break }
            }
            battery = camera.setting("batterylevel") ?? battery
            return nil
        } catch {
            guard case .gone = error else { return nil }
            forget()
            return "\(error)"
        }
    }

    /// Puts back the capture target the booth changed and closes the camera (its USB interface free for others).
    public func close() {
        if let camera, let originalTarget {
            try? camera.set("capturetarget", to: originalTarget)
        }
        originalTarget = nil
        forget()
    }

    /// The camera is closed (or gone): the next `open` looks for it again.
    private func forget() {
        camera = nil
        opened = nil
    }

    /// Sets the capture target to the camera's card when it has that setting and is not on it; says so.
    private func targetCard(_ camera: any GPhotoControl) throws(GPhotoError) -> String? {
        guard let current = camera.setting("capturetarget") else { return nil }
        guard let card = camera.choices("capturetarget").first(where: { $0.lowercased().contains("card") }),
            card != current
        else { return nil }
        try camera.set("capturetarget", to: card)
        originalTarget = current
        return "capture target: \(card), was \(current) (put back when the booth stops)"
    }

    /// Whether the battery level a camera gives (`batterylevel`: "15%" from most, "Low" or "Empty" from some) is
    /// low: 20 % or less, or said so in words. Unknown ("Full", "AC", nil) is not low.
    public static func isLow(battery: String?) -> Bool {
        guard let text = battery.map({ String($0.filter { $0 != " " }).lowercased() }), !text.isEmpty else {
            return false
        }
        if text.hasSuffix("%"), let percent = Double(text.dropLast()) { return percent <= 20 }
        return ["low", "empty", "exhausted"].contains { text.contains($0) }
    }

    /// Whether `selector` asks for the first camera that can take photos.
    static func isFirst(_ selector: String) -> Bool { ["", "auto", "0"].contains(selector) }

    /// Whether the camera's file `name` is a JPEG (by its extension, as cameras name them).
    static func isJPEG(_ name: String) -> Bool {
        let lower = name.lowercased()
        return lower.hasSuffix(".jpg") || lower.hasSuffix(".jpeg")
    }
}
