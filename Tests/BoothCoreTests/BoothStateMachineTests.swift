import Testing
@testable import BoothCore
@Test func builds() { _ = BoothStateMachine() }
