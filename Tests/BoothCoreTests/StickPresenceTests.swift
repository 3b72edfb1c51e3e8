// StickPresenceTests: a stick counts as removed when its mount goes by itself, or, after the booth's own
// unmount, when its block device goes, whatever order the unmount and the export's end arrive in.
import Testing

@testable import BoothCore

private let point = "/media/heylook/1234-ABCD"

@Test func aMountGoneOutsideAnExportIsARemovedStick() {
    let presence = StickPresence()
    #expect(presence.mountGone(at: point))
}

@Test func oneExportAtATimePerMountPoint() {
    var presence = StickPresence()
    let first = presence.exportStarting(at: point)
    let second = presence.exportStarting(at: point)
    let other = presence.exportStarting(at: "/media/heylook/OTHER")
    #expect(first && !second && other)
}

@Test func theBoothsOwnUnmountBeforeTheExportEndsIsNotARemoval() {
    var presence = StickPresence()
    _ = presence.exportStarting(at: point)
    #expect(!presence.mountGone(at: point))  // the unmount reaches mountinfo first
    presence.exportEnded(at: point, unmountedDevice: "8:0")
    #expect(presence.awaitingPull == [point: "8:0"])
    let polled1 = presence.poll(present: { _ in true })
    #expect(polled1.isEmpty)
    let polled2 = presence.poll(present: { $0 != "8:0" })
    #expect(polled2 == [point])
    #expect(presence.awaitingPull.isEmpty)
    let polled3 = presence.poll(present: { _ in false })
    #expect(polled3.isEmpty)  // reported once
}

@Test func theBoothsOwnUnmountAfterTheExportEndsIsNotARemovalEither() {
    var presence = StickPresence()
    _ = presence.exportStarting(at: point)
    presence.exportEnded(at: point, unmountedDevice: "8:0")
    #expect(!presence.mountGone(at: point))  // mountinfo lags behind the export's end
    #expect(presence.awaitingPull == [point: "8:0"])
    let polled4 = presence.poll(present: { _ in false })
    #expect(polled4 == [point])
}

@Test func aStickLeftMountedGoesWithItsMount() {
    var presence = StickPresence()
    _ = presence.exportStarting(at: point)
    presence.exportEnded(at: point, unmountedDevice: nil)
    #expect(presence.awaitingPull.isEmpty)
    #expect(presence.mountGone(at: point))
}

@Test func anUnknownDeviceIsNotAwaited() {
    var presence = StickPresence()
    _ = presence.exportStarting(at: point)
    presence.exportEnded(at: point, unmountedDevice: "")
    #expect(presence.awaitingPull.isEmpty)
    #expect(presence.mountGone(at: point))
}

@Test func aStickMountedAgainBeforeThePollIsANewExport() {
    var presence = StickPresence()
    _ = presence.exportStarting(at: point)
    presence.exportEnded(at: point, unmountedDevice: "8:0")
    let started = presence.exportStarting(at: point)
    #expect(started)
    #expect(presence.awaitingPull.isEmpty)
    #expect(!presence.mountGone(at: point))
}
