// environmentNumber: a whole number a test reads from its environment (a count or a seed to replay).
import Glibc

/// An environment variable's value as a number, or nil.
public func environmentNumber(_ name: String) -> UInt64? {
    getenv(name).flatMap { UInt64(String(cString: $0)) }
}
