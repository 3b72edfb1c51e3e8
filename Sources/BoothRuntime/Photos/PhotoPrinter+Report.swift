// PhotoPrinter+Report: what the printer reports (each page's and job's fate, the queue), and each print call's outcome.
import BoothCore
import Printing

extension PhotoPrinter {
    enum Report: Sendable {
        /// CUPS took `photo` as job `job` on `queue`.
        case sent(photo: String, job: Int32, queue: String)
        /// CUPS did not take `photo` (the reason names the fix).
        case refused(photo: String, reason: String)
        /// CUPS was out of reach: `photo` waits, and is sent again once CUPS answers; `mark` is the print ledger's line
        /// count before it was sent (`PrintWaitingList`).
        case waiting(photo: String, reason: String, mark: Int)
        /// The booth stopped while `photo` waited: it is kept, and sent once CUPS answers after the next start.
        case kept(photo: String)
        /// The pages kept when the booth last stopped, waiting again (each reported to the handler as `waiting`).
        case restored(pages: [PrintWaitingList.Page])
        /// A print limit refused `photo`: nothing was sent.
        case limited(photo: String, refusal: PrintLedger.Refusal)
        /// Every page of one `print` call (or of a resend) was sent, refused, limited or set to wait: what became of
        /// them, and the answer the call asked for (`print(_:answer:)`), by its number.
        case handedOver(Outcome, answer: Int?)
        /// Job `job` of `photo` will change no more: completed, canceled or aborted.
        case ended(photo: String, job: Int32, state: CUPSClient.JobState)
        /// CUPS could not say how job `job` is doing (restarted without its history, gone): it is followed no more.
        case lost(photo: String, job: Int32, reason: String)
        /// Job `job` of `photo`, sent before the booth last started, is still open: it is followed to its end.
        case resumed(photo: String, job: Int32)
        /// A look at the open jobs ended (the next is scheduled while any is open).
        case looked
        /// What keeps the queue from printing now (nil: nothing), reported when it changes; whether CUPS answered.
        case queue(attention: String?, reachable: Bool)
    }

    /// What became of the pages of one `print` call.
    struct Outcome: Sendable, Hashable {
        /// Pages CUPS took.
        var sent = 0
        /// Pages waiting for CUPS to answer.
        var waiting = 0
        /// Why the others were not sent (a limit, CUPS's refusal, a layout that could not be made), in order.
        var refusals: [String] = []

        /// Counts `report`, a page's fate, in.
        mutating func count(_ report: Report) {
            switch report {
            case .sent: sent += 1
            case .waiting: waiting += 1
            case .refused(_, let reason): refusals.append(reason)
            case .limited(_, let refusal): refusals.append(refusal.description)
            default: break
            }
        }
    }
}
