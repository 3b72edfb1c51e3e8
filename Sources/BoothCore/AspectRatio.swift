// AspectRatio: the saved photo's shape.
/// The saved photo's shape: the camera frame is centre-cropped to it.
public enum AspectRatio: String, Hashable, Sendable, CaseIterable {
    /// Portrait 3:4.
    case threeByFour
    /// Landscape 4:3 (the default: a Pi camera's native shape).
    case fourByThree
    /// Wide 16:9.
    case sixteenByNine
    /// Square 1:1.
    case square

    /// The name in the config file ("4:3").
    public var name: String { "\(width):\(height)" }

    /// The ratio named `name` ("3:4", "4:3", "16:9" or "1:1").
    public init?(name: String) {
        guard let ratio = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = ratio
    }

    /// The width part of the ratio.
    public var width: Int {
        switch self {
        case .threeByFour: 3
        case .fourByThree: 4
        case .sixteenByNine: 16
        case .square: 1
        }
    }

    /// The height part of the ratio.
    public var height: Int {
        switch self {
        case .threeByFour: 4
        case .fourByThree: 3
        case .sixteenByNine: 9
        case .square: 1
        }
    }
}
