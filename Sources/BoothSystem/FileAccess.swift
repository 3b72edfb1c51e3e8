// FileAccess: whether something is at a path, or readable, for this process (access).
import Glibc

/// Whether a path names something, and whether this process may read it: the checks that choose a default file
/// (`/etc/heylook/booth.toml` when it is there). Links are followed.
public enum FileAccess {
    /// Whether something (a file, a folder) is at `path`. The corresponding C function is `access` with F_OK.
    public static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

    /// Whether this process may read `path`. The corresponding C function is `access` with R_OK.
    public static func isReadable(_ path: String) -> Bool {
        access(path, R_OK) == 0
    }

    /// Whether nothing is at `path` (ENOENT); false when something is, and when the check fails otherwise (a
    /// folder on the way this process may not search): then opening it says why.
    public static func isMissing(_ path: String) -> Bool {
        access(path, F_OK) != 0 && errno == ENOENT
    }
}
