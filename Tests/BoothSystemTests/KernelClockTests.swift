// KernelClockTests: the kernel's clock never goes back, and its timestamps convert to instants exactly.
import BoothSystem
import BoothTime
import Glibc
import Testing

@Suite struct KernelClockTests {
    @Test("the kernel's monotonic clock never goes back and moves on across a sleep")
    func neverGoesBack() {
        let clock = KernelClock()
        var last = clock.now()
        for _ in 0..<1000 {
            let now = clock.now()
            #expect(now >= last)
            last = now
        }
        usleep(2_000)
        #expect(clock.now() - last >= .milliseconds(2))
    }

    @Test("a kernel timespec and unsigned nanoseconds become the same instant, and back")
    func kernelTimestampsConvertExactly() {
        let stamp = timespec(tv_sec: 12, tv_nsec: 345_678_901)
        let instant = Instant(stamp)
        #expect(instant == Instant(nanoseconds: 12_345_678_901))
        #expect(Instant(kernelNanoseconds: 12_345_678_901) == instant)
        #expect(instant.kernelNanoseconds == 12_345_678_901)
        #expect(instant.timespec.tv_sec == 12 && instant.timespec.tv_nsec == 345_678_901)
        #expect(Instant(nanoseconds: -5).kernelNanoseconds == 0, "before the origin: the origin")
        #expect(Instant(kernelNanoseconds: .max).nanoseconds == .max, "past Int64: clamped, not trapped")
    }
}
