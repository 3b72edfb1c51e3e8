// LEDFrame: what the row of countdown LEDs shows at one instant.
/// What the row of countdown LEDs shows at one instant: bit `i` set means LED `i` is lit.
public struct LEDFrame: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// One bit per LED, LED 0 in the least significant bit.
    public var bits: UInt8

    /// A frame with exactly the LEDs in `bits` lit.
    public init(bits: UInt8) {
        self.bits = bits
    }

    /// Every LED off.
    public static let dark = LEDFrame(bits: 0)

    /// The first `count` LEDs lit (clamped to 0...8).
    public static func firstLit(_ count: Int) -> LEDFrame {
        let n = max(0, min(8, count))
        return LEDFrame(bits: n == 8 ? 0xFF : UInt8((1 << n) - 1))
    }

    /// Whether LED `index` is lit.
    public func isLit(_ index: Int) -> Bool {
        index >= 0 && index < 8 && bits & (1 << UInt8(index)) != 0
    }

    /// `●●○○` style rendering for `count` LEDs.
    public func rendered(count: Int) -> String {
        String((0..<count).map { isLit($0) ? "●" : "○" })
    }

    public var description: String { rendered(count: 8) }
}
