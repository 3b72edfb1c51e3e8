// CameraInfo: a camera as libcamera lists it, for `booth doctor` and error messages.

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

    public var description: String { model.isEmpty ? "\(index): \(id)" : "\(index): \(id) (\(model))" }
}
