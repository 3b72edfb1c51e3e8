// FreeSpaceRuleTests: the store's free-space thresholds, at their edges.
import PhotoStore
import Testing

@Suite struct FreeSpaceRuleTests {
    private let mib: Int64 = 1024 * 1024
    private var rule: FreeSpaceRule { FreeSpaceRule(reserve: 200 * mib) }

    @Test func aSaveFitsWhileTheReserveStaysFree() {
        #expect(rule.fits(5 * mib, free: 205 * mib))
        #expect(!rule.fits(5 * mib + 1, free: 205 * mib))
        #expect(FreeSpaceRule(reserve: 0).fits(5 * mib, free: 5 * mib))
    }

    @Test func roomMeansOneMoreTypicalPhotoOf8MiB() {
        #expect(rule.hasRoom(free: 208 * mib))
        #expect(!rule.hasRoom(free: 208 * mib - 1))
    }

    @Test func theCleanupFrees64MiBBeyondTheReserve() {
        #expect(rule.cleanupTarget == 264 * mib)
        #expect(rule.hasRoom(free: rule.cleanupTarget))
    }
}
