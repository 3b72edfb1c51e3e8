// SplitMix64: a seeded generator, so a randomized test replays from its seed.
/// A small seeded generator (SplitMix64), so a failing randomized test can be replayed from its seed.
public struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    /// A generator starting from `seed`.
    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform number in 0..<1.
    public mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}
