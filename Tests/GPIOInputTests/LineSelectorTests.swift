// LineSelectorTests: parsing a line configuration value.
import Testing

@testable import GPIOInput

@Suite struct LineSelectorTests {
    @Test("digits are an offset, anything else a line name")
    func parse() {
        #expect(LineSelector(configValue: "17") == .offset(17))
        #expect(LineSelector(configValue: " 4 ") == .offset(4))
        #expect(LineSelector(configValue: "GPIO17") == .name("GPIO17"))
        #expect(LineSelector(configValue: "-1") == .name("-1"))
    }
}
