// StoreID: the rule for a booth's or a stick's id.
/// The rule for a booth's or a stick's id (in the photo index, manifests and the owner's sticks): 1 to 64 ASCII
/// letters, digits or '-'.
public enum StoreID {
    /// Whether `id` is a booth or stick id.
    public static func isValid(_ id: some StringProtocol) -> Bool {
        (1...64).contains(id.utf8.count)
            && id.utf8.allSatisfy {
                ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) || $0 == 0x2D
            }
    }
}
