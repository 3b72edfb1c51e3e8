// BuiltInSound: the sounds the booth synthesizes itself, named as the user sees them.

/// A sound the booth synthesizes in code; the raw value is the name shown to the user.
public enum BuiltInSound: String, CaseIterable, Sendable, Codable {
    /// Two nasal quacks.
    case duck = "Duck"
    /// A low, long moo.
    case cow = "Cow"
    /// Two short woof barks.
    case dog = "Dog"
    /// A wobbling spring.
    case boing = "Boing"
    /// A slide whistle gliding up.
    case whistle = "Whistle"
    /// A bubble popping.
    case pop = "Pop"
    /// A struck bell ringing out.
    case bell = "Bell"
    /// A two-tone ding-dong.
    case chime = "Chime"
    /// A camera shutter click-clack.
    case shutter = "Shutter"
}
