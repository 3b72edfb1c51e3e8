import LEDCountdown
/// The booth state machine (being written).
public struct BoothStateMachine { public init() {} }
