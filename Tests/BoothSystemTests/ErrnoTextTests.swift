// ErrnoTextTests: errno as text, the one way every message names it.
import BoothSystem
import Glibc
import Testing

@Suite struct ErrnoTextTests {
    @Test func aKnownCodeHasTheLibraryTextAndItsName() {
        #expect(ErrnoText.describe(EBUSY) == "Device or resource busy (EBUSY)")
        #expect(ErrnoText.name(ENOSPC) == "ENOSPC")
        #expect(ErrnoText.name(ESTRPIPE) == "ESTRPIPE")
    }

    @Test func anUnknownCodeIsNamedByItsNumber() {
        #expect(ErrnoText.name(12345) == "errno 12345")
        #expect(ErrnoText.describe(12345).hasSuffix("(errno 12345)"))
    }
}
