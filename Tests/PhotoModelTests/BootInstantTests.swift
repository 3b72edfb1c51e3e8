// BootInstantTests: a boot's moment in text and back; boot ids as the kernel and systemd write them.
import BoothTime
import Testing

@testable import PhotoModel

@Suite struct BootInstantTests {
    @Test func theKernelsAndSystemdsFormsOfABootIDAreOne() throws {
        let kernel = "6f1c2a4e-9b7d-4c0e-8a1f-2b3c4d5e6f70\n"
        let systemd = "6F1C2A4E9B7D4C0E8A1F2B3C4D5E6F70"
        #expect(BootInstant.bootID(kernel) == "6f1c2a4e9b7d4c0e8a1f2b3c4d5e6f70")
        #expect(BootInstant.bootID(systemd) == BootInstant.bootID(kernel))
        for refused in ["", "6f1c2a4e", "6f1c2a4e-9b7d-4c0e-8a1f-2b3c4d5e6f7g", kernel + "0", "%b"] {
            #expect(BootInstant.bootID(refused) == nil, "\(refused)")
            #expect(BootInstant(boot: refused, instant: .seconds(1)) == nil)
        }
    }

    @Test func aMomentRoundTripsThroughItsText() throws {
        let moment = try #require(BootInstant(boot: "6f1c2a4e-9b7d-4c0e-8a1f-2b3c4d5e6f70", instant: .seconds(12.5)))
        #expect(moment.description == "6f1c2a4e9b7d4c0e8a1f2b3c4d5e6f70@12500000000")
        #expect(BootInstant.parse(Substring(moment.description)) == moment)
        for refused in [
            "6f1c2a4e9b7d4c0e8a1f2b3c4d5e6f70", "6f1c2a4e9b7d4c0e8a1f2b3c4d5e6f70@", "@5",
            "6f1c2a4e9b7d4c0e8a1f2b3c4d5e6f70@-5", "6f1c2a4e-9b7d-4c0e-8a1f-2b3c4d5e6f70@5", "x@5",
        ] {
            #expect(BootInstant.parse(Substring(refused)) == nil, "\(refused)")
        }
    }
}
