// PhoneClockTests: a phone sets the clock only forwards, only unsynchronised, only once, only a plausible time.
import Testing

@testable import GalleryCore

@Suite struct PhoneClockTests {
    /// 2026-11-27 12:00:00 UTC and a booth that woke up at its last shutdown, two days earlier.
    let phone: Int64 = 1_795_780_800_000_000
    let booth: Int64 = 1_795_608_000_000_000

    @Test func anUnsynchronisedBoothTakesALaterPhoneTime() {
        #expect(
            PhoneClock.decide(phone: phone, booth: booth, synchronised: false, alreadySet: false)
                == .set(microseconds: phone))
    }

    @Test func theClockNeverGoesBack() {
        #expect(PhoneClock.decide(phone: booth - 1, booth: booth, synchronised: false, alreadySet: false) == .notLater)
        #expect(PhoneClock.decide(phone: booth, booth: booth, synchronised: false, alreadySet: false) == .notLater)
    }

    @Test func networkTimeAndAnEarlierPhoneWin() {
        #expect(PhoneClock.decide(phone: phone, booth: booth, synchronised: true, alreadySet: false) == .synchronised)
        #expect(PhoneClock.decide(phone: phone, booth: booth, synchronised: false, alreadySet: true) == .alreadySet)
    }

    @Test func anImplausibleTimeIsRefusedWhateverTheState() {
        for time: Int64 in [0, 1_000_000, PhoneClock.earliest - 1, PhoneClock.latest, .max] {
            #expect(PhoneClock.decide(phone: time, booth: 0, synchronised: false, alreadySet: false) == .implausible)
        }
    }

    @Test func theRequestBodyIsJavaScriptsMilliseconds() {
        #expect(PhoneClock.phoneTime(body: "t=1795780800123") == 1_795_780_800_123_000)
        for body in [
            "", "t=", "t=-5", "t=0", "t=1.5", "x=1795780800123", "t=1795780800123&t=1", "t=99999999999999999999",
        ] {
            #expect(PhoneClock.phoneTime(body: body) == nil, "\(body)")
        }
    }
}
