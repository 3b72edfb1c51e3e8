// QueueExecutorTests: an actor on a QueueExecutor runs its work on that queue, one job at a time.
import Dispatch
import Glibc
import Testing

@testable import Gallery

@Suite struct QueueExecutorTests {
    private actor Counter {
        static let key = DispatchSpecificKey<String>()
        private let executor: QueueExecutor
        nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
        private var running = 0
        private(set) var overlapped = false

        init(executor: QueueExecutor) {
            self.executor = executor
        }

        /// The label of the queue this runs on, read while it holds the counter for a moment.
        func work() -> String? {
            running += 1
            if running > 1 { overlapped = true }
            usleep(2000)
            running -= 1
            return DispatchQueue.getSpecific(key: Self.key)
        }
    }

    @Test func anActorsWorkRunsOnTheExecutorsQueueOneJobAtATime() async {
        let executor = QueueExecutor(label: "test.clock")
        executor.queue.setSpecific(key: Counter.key, value: "test.clock")
        let counter = Counter(executor: executor)
        let labels = await withTaskGroup(of: String?.self) { group in
            for _ in 0..<8 { group.addTask { await counter.work() } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(labels == Array(repeating: "test.clock", count: 8))
        #expect(await counter.overlapped == false)
    }
}
