// InterruptRetry: a call a signal interrupted (EINTR) made again, in one place.
import Glibc

/// The one retry loop of the wrappers here: calls `body` again while it fails with EINTR (a signal arrived
/// before it did anything), and returns its first other result (a failure's errno still set).
enum InterruptRetry {
    /// `body`'s first result that is not -1 with errno EINTR.
    static func call<Result: BinaryInteger>(_ body: () -> Result) -> Result {
        while true {
            let result = body()
            if result >= 0 || errno != EINTR { return result }
        }
    }
}
