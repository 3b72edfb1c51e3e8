/// LED frames as pure functions of time.
public struct LEDFrame: Equatable, Sendable { public var bits: UInt16; public init(bits: UInt16) { self.bits = bits } }
