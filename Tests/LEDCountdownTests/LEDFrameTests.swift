import Testing
@testable import LEDCountdown
@Test func frame() { #expect(LEDFrame(bits: 1).bits == 1) }
