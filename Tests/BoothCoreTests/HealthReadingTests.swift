// HealthReadingTests: SoC temperature and the Pi's under-voltage and throttling flags read and judged.
import Testing

@testable import BoothCore

@Suite struct HealthReadingTests {
    @Test func readsWhatSysfsWrites() {
        #expect(HealthReading.parseTemperature("51234\n") == 51234)
        #expect(HealthReading.parseTemperature("-2000\n") == -2000)
        #expect(HealthReading.parseThrottled("50005\n") == 0x50005)
        #expect(HealthReading.parseThrottled("0x80008") == 0x80008)
        #expect(HealthReading.parseThrottled("0\n") == 0)
    }

    @Test(arguments: ["", "\n", "hot", "51.2", "99999999999999999999", "1 2"])
    func aTemperatureThatIsNotANumberIsNone(text: String) {
        #expect(HealthReading.parseTemperature(text) == nil)
    }

    @Test(arguments: ["", "0x", "xyz", "123456789", "-1", "+5"])
    func flagsThatAreNotHexAreNone(text: String) {
        #expect(HealthReading.parseThrottled(text) == nil)
    }

    @Test func heatAndPowerFromTheReadingAndTheFlags() {
        let limit: Int64 = 80_000
        #expect(!HealthReading(temperature: 79_999, throttled: 0).overheating(limit: limit))
        #expect(HealthReading(temperature: 80_000, throttled: nil).overheating(limit: limit))
        #expect(HealthReading(temperature: nil, throttled: 0x8).overheating(limit: limit), "soft limit now")
        #expect(HealthReading(temperature: 60_000, throttled: 0x4).overheating(limit: limit), "throttled for heat")
        #expect(!HealthReading(temperature: 60_000, throttled: 0x5).overheating(limit: limit), "throttled for power")
        #expect(HealthReading(temperature: 60_000, throttled: 0x5).underVoltage)
        #expect(!HealthReading(temperature: 60_000, throttled: 0x50000).underVoltage, "only since boot")
        #expect(!HealthReading(temperature: nil, throttled: nil).overheating(limit: limit))
        #expect(
            HealthReading(temperature: nil, throttled: 0x50005).flagWords == [
                "under-voltage now", "throttled now", "under-voltage has occurred since boot",
                "throttling has occurred since boot",
            ])
    }
}
