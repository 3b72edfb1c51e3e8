// ScriptedCamera: a camera over USB that answers from a script, for what the virtual camera cannot do.
import Foundation
import GPhotoCapture

/// A camera that answers from a script: settings, the events after a trigger, its files.
public final class ScriptedCamera: GPhotoControl, @unchecked Sendable {
    /// A setting the booth changed.
    public struct Setting: Equatable, Sendable {
        public let key: String
        public let value: String
        public init(_ key: String, _ value: String) {
            self.key = key
            self.value = value
        }
    }

    public let name = "Canon EOS 2000D (usb:001,005)"
    public let model = "Canon EOS 2000D"
    public let canTakePhotos: Bool
    private var settings: [String: String]
    private let refuseSets: Bool
    private var events: [GPhotoCamera.Event]
    private let files: [String: [UInt8]]
    private let triggerError: GPhotoError?
    public private(set) var sets: [Setting] = []
    public private(set) var deleted: [String] = []
    public private(set) var triggers = 0
    /// Whether it refuses to set `key` to `value` (beside `refuseSets`, which refuses every setting).
    public var refuses: (_ key: String, _ value: String) -> Bool = { _, _ in false }
    /// Runs inside each trigger (a test moves its clock there: the time the camera takes to acknowledge).
    public var onTrigger: (() -> Void)?
    public private(set) var waited = 0

    public init(
        settings: [String: String] = [:], refuseSets: Bool = false, events: [GPhotoCamera.Event] = [],
        files: [String: [UInt8]] = [:], triggerError: GPhotoError? = nil, canTakePhotos: Bool = true
    ) {
        self.canTakePhotos = canTakePhotos
        self.settings = settings
        self.refuseSets = refuseSets
        self.events = events
        self.files = files
        self.triggerError = triggerError
    }

    /// The free space it reports (nil: none).
    public var free: Int64?

    /// Changes the setting `key` as the camera itself would (its battery running down), not as the booth sets it.
    public func change(_ key: String, to value: String) { settings[key] = value }

    /// How often each setting was read.
    public private(set) var reads: [String: Int] = [:]

    public func setting(_ key: String) -> String? {
        reads[key, default: 0] += 1
        return settings[key]
    }
    public func freeBytes() -> Int64? { free }
    public func choices(_ key: String) -> [String] { [] }

    public func set(_ key: String, to value: String) throws(GPhotoError) {
        if refuseSets || refuses(key, value) {
            throw .failed(camera: name, operation: "set \(key)", code: -1, detail: "refused")
        }
        sets.append(Setting(key, value))
        settings[key] = value
    }

    public func triggerCapture() throws(GPhotoError) {
        triggers += 1
        onTrigger?()
        if let triggerError { throw triggerError }
    }

    /// The next scripted event; once they are used up, a timeout after the whole wait (a real camera's wait).
    public func waitForEvent(within: Duration) throws(GPhotoError) -> GPhotoCamera.Event {
        guard events.isEmpty else { return events.removeFirst() }
        waited += 1
        Thread.sleep(forTimeInterval: min(within, .seconds(2)).inSeconds)
        return .timeout
    }

    /// Fails every download so (the camera unplugged mid-download: `.gone`).
    public var downloadError: GPhotoError?

    public func download(folder: String, name: String) throws(GPhotoError) -> [UInt8] {
        if let downloadError { throw downloadError }
        guard let bytes = files[name] else {
            throw .failed(camera: self.name, operation: "download \(name)", code: -108, detail: "File not found")
        }
        return bytes
    }

    public func delete(folder: String, name: String) throws(GPhotoError) { deleted.append(name) }
}
