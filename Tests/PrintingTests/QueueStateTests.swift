// QueueStateTests: what a queue's state and printer-state-reasons say the printer needs, without a CUPS.
import Printing
import Testing

@Suite struct QueueStateTests {
    @Test func eachReasonThatStopsAPrinterIsNamedAndAReportIsInformationOnly() {
        let queue = CUPSClient.QueueState(
            name: "Photo", state: 3,
            reasons: [
                "media-jam-error", "door-open-warning", "marker-supply-empty", "media-empty-report",
                "toner-low-warning",
                "offline-report", "cups-waiting-for-job-completed",
            ])
        #expect(queue.needs.map(\.reason) == ["media-jam-error", "door-open-warning", "marker-supply-empty"])
        #expect(queue.needs.map(\.words) == ["a paper jam", "a door or cover open", "out of ink, toner or ribbon"])
        #expect(
            queue.attention
                == "a paper jam (media-jam-error); a door or cover open (door-open-warning); "
                + "out of ink, toner or ribbon (marker-supply-empty)")
    }

    @Test func aStoppedQueueNeedsAttentionAndAReadyOneDoesNot() {
        let stopped = CUPSClient.QueueState(name: "Photo", state: 5, reasons: ["paused"])
        #expect(stopped.isStopped)
        #expect(stopped.attention == "the queue Photo is stopped")
        let ready = CUPSClient.QueueState(name: "Photo", state: 4, reasons: ["media-low-report"])
        #expect(ready.needs.isEmpty)
        #expect(ready.attention == nil)
    }
}
