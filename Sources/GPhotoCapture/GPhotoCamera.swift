// GPhotoCamera: a camera over USB through libgphoto2; the only Swift file that calls `gp_*`.
import BoothTime
import CGPhoto2

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// An open libgphoto2 camera (a DSLR or mirrorless camera over USB, PTP).
///
/// Every call blocks on USB (a trigger, a download: up to seconds), so the camera belongs to one worker thread, never
/// to the event loop: it is `Sendable` only so that it can be handed to that thread, and must be used from one thread
/// at a time. Closing (deinit) gives the USB interface back.
public final class GPhotoCamera: @unchecked Sendable {
    /// A USB device libgphoto2 found: its model, its port ("usb:001,005"), and whether it can take photos (a phone
    /// charging on the booth's USB is found too, as an MTP device that cannot).
    public struct Found: Sendable, Equatable, CustomStringConvertible {
        public let model: String
        public let port: String
        public let canCapture: Bool

        public init(model: String, port: String, canCapture: Bool) {
            self.model = model
            self.port = port
            self.canCapture = canCapture
        }

        public var description: String { "\(model) (\(port))" }

        /// As a list of what libgphoto2 finds says it: "MTP Device (usb:001,004) (cannot take photos)".
        public var listed: String { canCapture ? description : "\(description) (cannot take photos)" }
    }

    /// What the camera said while the booth waited (`waitForEvent`).
    public enum Event: Sendable, Equatable {
        /// A photo is on the camera: `folder`/`name` on the camera's file system.
        case fileAdded(folder: String, name: String)
        /// The capture is complete (some cameras say so after their files).
        case captureComplete
        /// Nothing within the wait.
        case timeout
        /// Anything else (a setting changed, a folder added).
        case other
    }

    /// The camera's model, as libgphoto2 names it ("Canon EOS 2000D").
    public let model: String
    /// Its USB port ("usb:001,005").
    public let port: String
    private let camera: UnsafeMutablePointer<Camera>
    private let context: OpaquePointer
    private let messages: ContextMessages

    /// "Canon EOS 2000D (usb:001,005)", for messages.
    public var name: String { "\(model) (\(port))" }

    /// Every USB camera libgphoto2 finds, capable or not; [] when none. Loads libgphoto2's drivers (camlibs) and scans
    /// USB: tens of milliseconds. The corresponding C function is `gp_camera_autodetect`.
    public static func find() -> [Found] {
        guard let context = gp_context_new() else { return [] }
        defer { gp_context_unref(context) }
        var list: OpaquePointer?
        guard gp_list_new(&list) >= 0, let list else { return [] }
        defer { gp_list_free(list) }
        guard gp_camera_autodetect(list, context) >= 0 else { return [] }
        var abilities: OpaquePointer?
        guard gp_abilities_list_new(&abilities) >= 0, let abilities else { return [] }
        defer { gp_abilities_list_free(abilities) }
        guard gp_abilities_list_load(abilities, context) >= 0 else { return [] }
        return (0..<max(0, gp_list_count(list))).compactMap { index in
            var model: UnsafePointer<CChar>?
            var port: UnsafePointer<CChar>?
            guard gp_list_get_name(list, index, &model) >= 0, gp_list_get_value(list, index, &port) >= 0,
                let model, let port
            else { return nil }
            var canCapture = false
            let entry = gp_abilities_list_lookup_model(abilities, model)
            var found = CameraAbilities()
            if entry >= 0, gp_abilities_list_get_abilities(abilities, entry, &found) >= 0 {
                let operations = found.operations.rawValue
                let capture = GP_OPERATION_CAPTURE_IMAGE.rawValue | GP_OPERATION_TRIGGER_CAPTURE.rawValue
                canCapture = found.device_type == GP_DEVICE_STILL_CAMERA && operations & capture != 0
            }
            return Found(model: String(cString: model), port: String(cString: port), canCapture: canCapture)
        }
    }

    /// Opens the camera `found` (`find()`'s), claiming its USB interface. The corresponding C function is
    /// `gp_camera_init`.
    public init(_ found: Found) throws(GPhotoError) {
        model = found.model
        port = found.port
        messages = ContextMessages()
        guard let context = gp_context_new() else {
            throw .failed(camera: found.description, operation: "open", code: GP_ERROR_NO_MEMORY, detail: "no memory")
        }
        self.context = context
        gp_context_set_error_func(
            context,
            { _, text, data in
                guard let text, let data else { return }
                Unmanaged<ContextMessages>.fromOpaque(data).takeUnretainedValue().last = String(cString: text)
            }, Unmanaged.passUnretained(messages).toOpaque())
        var opened: UnsafeMutablePointer<Camera>?
        guard gp_camera_new(&opened) >= 0, let opened else {
            gp_context_unref(context)
            throw .failed(camera: found.description, operation: "open", code: GP_ERROR_NO_MEMORY, detail: "no memory")
        }
        camera = opened
        let code = Self.configure(opened, found, context)
        guard code >= 0 else {
            let error = Self.error(code, camera: found.description, operation: "open", detail: messages.take())
            gp_camera_unref(opened)
            gp_context_unref(context)
            throw error
        }
    }

    deinit {
        gp_camera_exit(camera, context)
        gp_camera_unref(camera)
        gp_context_unref(context)
    }

    /// Whether the open device can take photos, as its driver says once it is open: a PTP device (libgphoto2's ptp2
    /// driver) lists its capture operations in its summary, and one with neither generic nor vendor capture is no
    /// camera (a phone in MTP mode, which `find()` can only judge by its USB class). Other drivers' abilities stand.
    /// The corresponding C function is `gp_camera_get_summary`.
    public var canTakePhotos: Bool {
        let summary = UnsafeMutablePointer<CameraText>.allocate(capacity: 1)
        defer { summary.deallocate() }
        guard gp_camera_get_summary(camera, summary, context) >= 0 else {
            _ = messages.take()
            return true
        }
        // Its one field, a 32 KiB char array, is too large for Swift to import: read it as the C string it holds.
        let size = MemoryLayout<CameraText>.size
        let text = UnsafeMutableRawPointer(summary).withMemoryRebound(to: UInt8.self, capacity: size) { bytes in
            bytes[size - 1] = 0
            return String(cString: bytes)
        }
        guard text.contains("Device Capabilities:") else { return true }
        return !(text.contains("No Image Capture") && text.contains("No vendor specific capture"))
    }

    /// Presses the shutter: the photo arrives later as `.fileAdded` (`waitForEvent`). The corresponding C function is
    /// `gp_camera_trigger_capture`.
    public func triggerCapture() throws(GPhotoError) {
        try check(gp_camera_trigger_capture(camera, context), "trigger")
    }

    /// Waits up to `within` (to the millisecond) for what the camera says next. The corresponding C function is
    /// `gp_camera_wait_for_event`.
    public func waitForEvent(within: Duration) throws(GPhotoError) -> Event {
        var type = GP_EVENT_UNKNOWN
        var data: UnsafeMutableRawPointer?
        try check(
            gp_camera_wait_for_event(camera, Int32(clamping: within.inMilliseconds), &type, &data, context), "wait")
        defer { free(data) }
        switch type {
        case GP_EVENT_FILE_ADDED:
            guard var path = data?.load(as: CameraFilePath.self) else { return .other }
            return .fileAdded(folder: Self.text(&path.folder), name: Self.text(&path.name))
        case GP_EVENT_CAPTURE_COMPLETE: return .captureComplete
        case GP_EVENT_TIMEOUT: return .timeout
        default: return .other
        }
    }

    /// The file `folder`/`name` on the camera, whole, as the camera wrote it. The corresponding C function is
    /// `gp_camera_file_get`.
    public func download(folder: String, name: String) throws(GPhotoError) -> [UInt8] {
        var file: OpaquePointer?
        try check(gp_file_new(&file), "download \(name)")
        guard let file else { return [] }
        defer { gp_file_unref(file) }
        try check(gp_camera_file_get(camera, folder, name, GP_FILE_TYPE_NORMAL, file, context), "download \(name)")
        var data: UnsafePointer<CChar>?
        var size: UInt = 0
        try check(gp_file_get_data_and_size(file, &data, &size), "download \(name)")
        guard let data else { return [] }
        return Array(UnsafeRawBufferPointer(start: data, count: Int(size)))
    }

    /// The free space on the camera's cards, in bytes (summed over those that say it: a card's access, which is the
    /// computer's right to write to it, says nothing of the camera's own photos); nil when none says it. The
    /// corresponding C function is `gp_camera_get_storageinfo`.
    public func freeBytes() -> Int64? {
        var storages: UnsafeMutablePointer<CameraStorageInformation>?
        var count: Int32 = 0
        guard gp_camera_get_storageinfo(camera, &storages, &count, context) >= 0, let storages else {
            _ = messages.take()
            return nil
        }
        defer { free(storages) }
        let known = UnsafeBufferPointer(start: storages, count: Int(max(0, count))).filter { storage in
            storage.fields.rawValue & GP_STORAGEINFO_FREESPACEKBYTES.rawValue != 0
        }
        guard !known.isEmpty else { return nil }
        return known.reduce(0) { $0 + Int64(clamping: $1.freekbytes) * 1024 }
    }

    /// Deletes `folder`/`name` from the camera. The corresponding C function is `gp_camera_file_delete`.
    public func delete(folder: String, name: String) throws(GPhotoError) {
        try check(gp_camera_file_delete(camera, folder, name, context), "delete \(name)")
    }

    /// The setting `key` ("capturetarget", "batterylevel") as text (a toggle as "0" or "1", a range as its number);
    /// nil when the camera has no such setting. The corresponding C function is `gp_camera_get_single_config`.
    public func setting(_ key: String) -> String? {
        var widget: OpaquePointer?
        guard gp_camera_get_single_config(camera, key, &widget, context) >= 0, let widget else {
            _ = messages.take()
            return nil
        }
        defer { gp_widget_free(widget) }
        var type = GP_WIDGET_TEXT
        guard gp_widget_get_type(widget, &type) >= 0 else { return nil }
        switch type {
        case GP_WIDGET_TEXT, GP_WIDGET_RADIO, GP_WIDGET_MENU:
            var value: UnsafePointer<CChar>?
            guard gp_widget_get_value(widget, &value) >= 0, let value else { return nil }
            return String(cString: value)
        case GP_WIDGET_TOGGLE, GP_WIDGET_DATE:
            var value: Int32 = 0
            guard gp_widget_get_value(widget, &value) >= 0 else { return nil }
            return String(value)
        case GP_WIDGET_RANGE:
            var value: Float = 0
            guard gp_widget_get_value(widget, &value) >= 0 else { return nil }
            return value == value.rounded() ? String(Int(value)) : String(value)
        default:
            return nil
        }
    }

    /// The values the choice `key` offers ("Internal RAM", "Memory card"); [] when it is no choice or missing. The
    /// corresponding C function is `gp_widget_get_choice`.
    public func choices(_ key: String) -> [String] {
        var widget: OpaquePointer?
        guard gp_camera_get_single_config(camera, key, &widget, context) >= 0, let widget else {
            _ = messages.take()
            return []
        }
        defer { gp_widget_free(widget) }
        return (0..<max(0, gp_widget_count_choices(widget))).compactMap { index in
            var choice: UnsafePointer<CChar>?
            guard gp_widget_get_choice(widget, index, &choice) >= 0, let choice else { return nil }
            return String(cString: choice)
        }
    }

    /// Sets `key` to `value` (text for a choice, "1" or "0" for a toggle). The corresponding C function is
    /// `gp_camera_set_single_config`.
    public func set(_ key: String, to value: String) throws(GPhotoError) {
        var widget: OpaquePointer?
        try check(gp_camera_get_single_config(camera, key, &widget, context), "read \(key)")
        guard let widget else { return }
        defer { gp_widget_free(widget) }
        var type = GP_WIDGET_TEXT
        try check(gp_widget_get_type(widget, &type), "read \(key)")
        switch type {
        case GP_WIDGET_TOGGLE, GP_WIDGET_DATE:
            var number = Int32(value) ?? 0
            try check(gp_widget_set_value(widget, &number), "set \(key)")
        case GP_WIDGET_RANGE:
            var number = Float(value) ?? 0
            try check(gp_widget_set_value(widget, &number), "set \(key)")
        default:
            try check(value.withCString { gp_widget_set_value(widget, $0) }, "set \(key)")
        }
        try check(gp_camera_set_single_config(camera, key, widget, context), "set \(key)")
    }

    /// Sets up `camera` for `found`: its driver's abilities and its port, then opens it.
    private static func configure(
        _ camera: UnsafeMutablePointer<Camera>, _ found: Found, _ context: OpaquePointer
    ) -> Int32 {
        var abilitiesList: OpaquePointer?
        var code = gp_abilities_list_new(&abilitiesList)
        guard code >= 0, let abilitiesList else { return code }
        defer { gp_abilities_list_free(abilitiesList) }
        code = gp_abilities_list_load(abilitiesList, context)
        guard code >= 0 else { return code }
        let entry = gp_abilities_list_lookup_model(abilitiesList, found.model)
        guard entry >= 0 else { return entry }
        var abilities = CameraAbilities()
        code = gp_abilities_list_get_abilities(abilitiesList, entry, &abilities)
        guard code >= 0 else { return code }
        code = gp_camera_set_abilities(camera, abilities)
        guard code >= 0 else { return code }
        var ports: OpaquePointer?
        code = gp_port_info_list_new(&ports)
        guard code >= 0, let ports else { return code }
        defer { gp_port_info_list_free(ports) }
        code = gp_port_info_list_load(ports)
        guard code >= 0 else { return code }
        let index = gp_port_info_list_lookup_path(ports, found.port)
        guard index >= 0 else { return index }
        var info: GPPortInfo?
        code = gp_port_info_list_get_info(ports, index, &info)
        guard code >= 0, let info else { return code }
        code = gp_camera_set_port_info(camera, info)
        guard code >= 0 else { return code }
        return gp_camera_init(camera, context)
    }

    /// Throws the error `code` means, unless it is success.
    private func check(_ code: Int32, _ operation: String) throws(GPhotoError) {
        guard code < 0 else { return }
        throw Self.error(code, camera: name, operation: operation, detail: messages.take())
    }

    /// The error libgphoto2's `code` means, `detail` being what its context said (else its text for the code).
    static func error(_ code: Int32, camera: String, operation: String, detail: String?) -> GPhotoError {
        switch code {
        case GP_ERROR_IO_USB_CLAIM: return .busy(camera: camera)
        case GP_ERROR_IO_USB_FIND, GP_ERROR_IO, GP_ERROR_IO_READ, GP_ERROR_IO_WRITE, GP_ERROR_IO_INIT,
            GP_ERROR_MODEL_NOT_FOUND, GP_ERROR_UNKNOWN_PORT:
            return .gone(camera: camera)
        case GP_ERROR_NO_SPACE: return .cardFull(camera: camera)
        default:
            let text = detail ?? String(cString: gp_result_as_string(code))
            return .failed(camera: camera, operation: operation, code: code, detail: text)
        }
    }

    /// A Swift string from a fixed-size C char array (a tuple in Swift).
    private static func text<T>(_ tuple: inout T) -> String {
        withUnsafeBytes(of: &tuple) { bytes in String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self) }
    }
}

/// What libgphoto2's context last said went wrong (its error callback's text), taken once by the next error.
private final class ContextMessages {
    var last: String?

    func take() -> String? {
        defer { last = nil }
        return last
    }
}
