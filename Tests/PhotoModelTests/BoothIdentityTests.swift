// BoothIdentityTests: the booth id follows the machine it was made on; a clone gets a new one, an upgrade does not.
import Testing

@testable import PhotoModel

private func newID() -> String { "00000000000000ff" }

@Test func aFileHoldsTheIdAndTheMachine() {
    let identity = BoothIdentity(id: "0123456789abcdef", machine: "serial:10000000abcdef01")
    #expect(identity.text == "0123456789abcdef\nmachine serial:10000000abcdef01\n")
    #expect(BoothIdentity.parse(identity.text) == identity)
    #expect(BoothIdentity.parse("0123456789abcdef\n") == BoothIdentity(id: "0123456789abcdef", machine: nil))
    #expect(
        BoothIdentity.parse(" 0123456789abcdef \r\nmachine \n") == BoothIdentity(id: "0123456789abcdef", machine: nil))
}

@Test func aFileWithoutAValidIdIsNone() {
    #expect(BoothIdentity.parse("") == nil)
    #expect(BoothIdentity.parse("not an id!\nmachine x\n") == nil)
    #expect(BoothIdentity.parse(String(repeating: "a", count: 65)) == nil)
}

@Test func theFirstStartMakesAnIdForThisMachine() {
    let (identity, write) = BoothIdentity.resolve(stored: nil, machine: "id:abc", newID: newID)
    #expect(identity == BoothIdentity(id: newID(), machine: "id:abc") && write)
}

@Test func theSameMachineKeepsItsId() {
    let stored = BoothIdentity(id: "0123456789abcdef", machine: "id:abc")
    let (identity, write) = BoothIdentity.resolve(stored: stored, machine: "id:abc", newID: newID)
    #expect(identity == stored && !write)
}

@Test func anotherMachineGetsANewId() {
    let stored = BoothIdentity(id: "0123456789abcdef", machine: "serial:1111")
    let (identity, write) = BoothIdentity.resolve(stored: stored, machine: "serial:2222", newID: newID)
    #expect(identity == BoothIdentity(id: newID(), machine: "serial:2222") && write)
}

@Test func anIdFromBeforeTheMachineLineIsKeptAndGainsIt() {
    let stored = BoothIdentity(id: "0123456789abcdef", machine: nil)
    let (identity, write) = BoothIdentity.resolve(stored: stored, machine: "id:abc", newID: newID)
    #expect(identity == BoothIdentity(id: "0123456789abcdef", machine: "id:abc") && write)
}

@Test func anUnknownMachineChangesNothing() {
    let stored = BoothIdentity(id: "0123456789abcdef", machine: "id:abc")
    let (identity, write) = BoothIdentity.resolve(stored: stored, machine: nil, newID: newID)
    #expect(identity == stored && !write)
}
