// SoakTests: hundreds of sequences with random input through the real controller, in virtual time.
import BoothCore
import BoothTestSupport
import Glibc
import PhotoModel
import PhotoStore
import Testing

@testable import BoothRuntime

extension SimulatedBoothTests {
    /// 300 presses, each with random knob turns, presses, cancels and retakes around it: every
    /// sequence that reached saving left exactly one photo, every other one was aborted, the run
    /// ends and the booth is idle at the end.
    @Test func threeHundredRandomSequencesEachLeaveOnePhotoAndTheBoothEndsIdle() throws {
        let seed = environmentNumber("HEYLOOK_SOAK_SEED") ?? UInt64.random(in: 1...UInt64(UInt32.max))
        print("soak test: seed \(seed) (HEYLOOK_SOAK_SEED=\(seed) replays it)")
        var random = SplitMix64(seed: seed)
        let noise = ["knob +1", "knob -1", "knob +3", "knob -2", "knob-press", "knob-long-press", "press", "cancel"]
        var script = ""
        for _ in 0..<300 {
            for _ in 0..<Int(random.next() % 3) {
                script += "\(noise[Int(random.next() % 6)])\nwait \(Double(random.next() % 300) / 1000)\n"
            }
            script += "press\n"
            // Input during the sequence: ignored, or (cancel) aborting it.
            for _ in 0..<Int(random.next() % 4) {
                let command = random.next() % 20 == 0 ? "cancel" : noise[Int(random.next() % 7)]
                script += "wait \(Double(random.next() % 1500) / 1000)\n\(command)\n"
            }
            // Sometimes a retake (a hold within the review window), then long enough for the longest
            // sound and delay.
            if random.next() % 10 == 0 { script += "wait 4.5\nlong-press\n" }
            script += "wait 8\n"
        }
        script += "quit\n"
        let (events, photos) = try run(script, fast: true)

        let states = events.filter { $0.type == "state" }.map { ($0.fields["from"]!, $0.fields["to"]!) }
        let started = states.filter { $0.1 == "playingSound" }.count
        let saving = states.filter { $0.1 == "processing" }.count
        let aborted = states.filter { $0.1 == "aborted" }.count
        let saved = events.filter { $0.type == "photoSaved" }.count
        let discarded = events.filter { $0.type == "photoDiscarded" }.count
        #expect(saving == saved, "\(saving) sequences reached saving, \(saved) photos saved")
        #expect(started == saved + aborted, "\(started) sequences started, \(saved) saved, \(aborted) aborted")
        #expect(saved >= 250, "only \(saved) of 300 sequences completed")
        #expect(states.last?.1 == "idle", "the booth ended in \(states.last?.1 ?? "no state")")
        #expect(!events.contains { $0.type == "error" && !$0.fields["message"]!.contains("cancel") })
        let kept = try PhotoStore.fileNames(in: photos).filter { PhotoName(fileName: $0) != nil }
        let aside = try PhotoStore.fileNames(in: "\(photos)/discarded").filter { PhotoName(fileName: $0) != nil }
        #expect(kept.count == saved - discarded)
        #expect(aside.count == discarded)
        print("soak test: \(started) sequences, \(saved) photos, \(aborted) aborted, \(discarded) retakes")
    }
}
