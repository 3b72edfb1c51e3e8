// BoothVersion: the release this source tree is, as CHANGELOG.md's newest heading names it.
/// The release this source tree is. CHANGELOG.md's newest heading names the same version (a test checks it), and
/// `scripts/package` makes the Debian package's version and changelog from that file.
public enum BoothVersion {
    /// The version, e.g. "0.11.0".
    public static let current = "0.16.1"
}
