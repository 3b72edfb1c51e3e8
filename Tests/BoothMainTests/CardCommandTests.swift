// CardCommandTests: what `booth card` says when it cannot keep the booth's copy of the card for the sticks.
import BoothSystem
import Glibc
import Testing

@testable import BoothMain

@Suite struct CardCommandTests {
    @Test func offAnInstalledBoothTheCopyForTheSticksIsSaidPlainlyNotAsAnError() {
        let missing = SystemError("open", "/var/lib/heylook/.join-card.pdf.tmp", errno: ENOENT)
        #expect(
            CardCommand.notKept(missing, stateFolder: "/var/lib/heylook")
                == "the copy for the sticks is kept only on an installed booth (there is no /var/lib/heylook here); "
                + "the card above is complete")
        let refused = SystemError("open", "/var/lib/heylook/.join-card.pdf.tmp", errno: EACCES)
        let text = CardCommand.notKept(refused, stateFolder: "/var/lib/heylook")
        #expect(
            text.hasPrefix("not kept for the sticks (")
                && text.hasSuffix("run it as root on the booth (sudo booth card)"))
    }
}
