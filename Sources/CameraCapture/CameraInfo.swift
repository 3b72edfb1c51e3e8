// CameraInfo: a camera as libcamera lists it, for `booth doctor` and error messages.
import LibcameraShim

/// One camera libcamera can see.
public struct CameraInfo: Sendable, Hashable, CustomStringConvertible {
    /// Position in libcamera's list; usable as the selector "0", "1", ...
    public var index: Int
    /// libcamera's stable id (also usable as a selector).
    public var id: String
    /// Sensor model, e.g. "imx708"; empty if the driver does not say.
    public var model: String
    /// Still-capture modes.
    public var modes: [CameraMode]

    /// A listed camera.
    public init(index: Int, id: String, model: String, modes: [CameraMode]) {
        self.index = index
        self.id = id
        self.model = model
        self.modes = modes
    }

    /// The mode the booth streams when `camera.width` and `camera.height` are unset: the largest picture in a
    /// format it takes, of equal sizes the one needing least work (`booth_camera_pick_mode`, which opening
    /// the camera uses too); nil when the camera offers no such format.
    public var streamedMode: CameraMode? {
        let offered = modes.map { mode in
            var shimMode = booth_camera_mode()
            withUnsafeMutableBytes(of: &shimMode.pixel_format) { name in
                for (offset, byte) in mode.pixelFormat.utf8.prefix(name.count - 1).enumerated() { name[offset] = byte }
            }
            shimMode.width = UInt32(clamping: mode.width)
            shimMode.height = UInt32(clamping: mode.height)
            return shimMode
        }
        let picked = Int(booth_camera_pick_mode(offered, offered.count))
        return modes.indices.contains(picked) ? modes[picked] : nil
    }

    public var description: String { model.isEmpty ? "\(index): \(id)" : "\(index): \(id) (\(model))" }
}
