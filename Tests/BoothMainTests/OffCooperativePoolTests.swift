// OffCooperativePoolTests: a test under the trait runs on a queue of its own, one without it on the shared pool.
import BoothTestSupport
import Dispatch
import Testing

@Suite(.timeLimit(.minutes(3))) struct OffCooperativePoolTests {
    @Test(.offCooperativePool) func aTestUnderTheTraitRunsOnItsOwnQueue() {
        #expect(OffCooperativePool.isCurrent)
    }

    @Test(.offCooperativePool, arguments: [1, 2]) func eachCaseOfAParameterisedTestToo(_ n: Int) {
        #expect(OffCooperativePool.isCurrent, "case \(n)")
    }

    @Test func aTestWithoutItStaysOnThePool() {
        #expect(!OffCooperativePool.isCurrent)
    }
}
