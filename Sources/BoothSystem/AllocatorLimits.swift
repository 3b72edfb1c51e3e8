// AllocatorLimits: glibc malloc kept small for a long-running process (few arenas, large blocks given back at free).
import CBoothSys

/// glibc malloc's limits for a process that runs for days on several threads (the booth, the gallery): at most
/// `arenas` arenas (glibc's default, 8 per core, keeps what each thread freed), and blocks of `returnedAbove` bytes
/// or more mapped on their own and unmapped when freed. A fixed threshold also stops glibc from raising it after each
/// large free (its default, up to 32 MiB), which otherwise keeps every large buffer ever freed in the heap.
public enum AllocatorLimits {
    /// Applies the limits to this process; call before it starts threads. Returns a warning when glibc refused one.
    public static func apply(arenas: Int32 = 2, returnedAbove bytes: Int32 = 512 * 1024) -> String? {
        guard mallopt(M_ARENA_MAX, arenas) == 1, mallopt(M_MMAP_THRESHOLD, bytes) == 1 else {
            return "malloc: mallopt refused the arena or mmap limits; memory use may grow under load"
        }
        return nil
    }
}
