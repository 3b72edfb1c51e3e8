// RequestBudgetTests: a page's burst passes, a flood is told to wait, memory stays bounded.
import BoothTime
import Testing

@testable import GalleryCore

@Suite struct RequestBudgetTests {
    let t0 = Instant.seconds(100)

    @Test func aPageOfThumbnailsPassesAFloodWaits() {
        var budget = RequestBudget(rate: 20, burst: 120)
        var admitted = 0
        for _ in 0..<200 where budget.admit("10.0.0.7", at: t0) { admitted += 1 }
        #expect(admitted == 120, "the burst, then nothing at the same instant")
        #expect(budget.wait("10.0.0.7") == 1)
        // Another guest is not held back by the first.
        let other = budget.admit("10.0.0.8", at: t0)
        #expect(other)
        // A twentieth of a second refills one request.
        let refilled = budget.admit("10.0.0.7", at: t0.advanced(by: .milliseconds(50)))
        let again = budget.admit("10.0.0.7", at: t0.advanced(by: .milliseconds(50)))
        #expect(refilled && !again)
        // Quiet for a minute: the whole burst again, never more.
        let later = t0.advanced(by: .seconds(60))
        admitted = 0
        for _ in 0..<200 where budget.admit("10.0.0.7", at: later) { admitted += 1 }
        #expect(admitted == 120)
    }

    @Test func manyClientsKeepTheMemoryBounded() {
        var budget = RequestBudget(rate: 20, burst: 120, maximumClients: 100)
        for i in 0..<1000 {
            _ = budget.admit("10.0.\(i / 250).\(i % 250)", at: t0.advanced(by: .milliseconds(Int64(i))))
        }
        #expect(budget.clients <= 100)
    }

    /// A new client evicts first the buckets that are full again (quiet clients), keeping a flooding one's debt.
    @Test func aFloodingClientIsNotForgottenForAQuietOne() {
        var budget = RequestBudget(rate: 1, burst: 2, maximumClients: 2)
        _ = budget.admit("quiet", at: t0)
        for _ in 0..<3 { _ = budget.admit("flood", at: t0.advanced(by: .seconds(5))) }
        _ = budget.admit("new", at: t0.advanced(by: .seconds(5)))
        #expect(budget.clients == 2)
        let flood = budget.admit("flood", at: t0.advanced(by: .seconds(5)))
        #expect(!flood, "the flooding client still owes its wait")
    }
}
