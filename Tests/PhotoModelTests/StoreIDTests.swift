// StoreIDTests: the rule for booth and stick ids.
import PhotoModel
import Testing

@Test func storeIDsAreShortLettersDigitsAndDashes() {
    #expect(StoreID.isValid("stick-9"))
    #expect(StoreID.isValid(String(repeating: "a", count: 64)))
    #expect(!StoreID.isValid("a b"))
    #expect(!StoreID.isValid(""))
    #expect(!StoreID.isValid(String(repeating: "a", count: 65)))
}
