// RequestBudget: how fast each client may ask: a token bucket per client address, in bounded memory.
import BoothTime

/// How fast each client (by address) may send requests: a token bucket each, `burst` deep, refilled at `rate` a
/// second. A gallery page asks for its thumbnails at once, so the burst covers a page; a client that keeps asking
/// faster than `rate` is told to wait (429). At most `maximumClients` buckets are kept: past that, full buckets
/// (clients quiet long enough to be refilled) go first, then the longest unused.
public struct RequestBudget: Sendable {
    public let rate: Double
    public let burst: Double
    public let maximumClients: Int
    private var buckets: [String: (tokens: Double, at: Instant)] = [:]

    public init(rate: Double = 30, burst: Double = 240, maximumClients: Int = 1024) {
        (self.rate, self.burst, self.maximumClients) = (rate, burst, maximumClients)
    }

    /// How many clients are remembered.
    public var clients: Int { buckets.count }

    /// Whether `client` may make a request at `now`; takes one token when it may.
    public mutating func admit(_ client: String, at now: Instant) -> Bool {
        var bucket = buckets[client] ?? (tokens: burst, at: now)
        let elapsed = max(.zero, now.since(bucket.at)).inSeconds
        bucket.tokens = min(burst, bucket.tokens + elapsed * rate)
        bucket.at = now
        let admitted = bucket.tokens >= 1
        if admitted { bucket.tokens -= 1 }
        if buckets[client] == nil && buckets.count >= maximumClients { evict(at: now) }
        buckets[client] = bucket
        return admitted
    }

    /// Seconds until `client` has a token again (for Retry-After), at least 1.
    public func wait(_ client: String) -> Int {
        guard let bucket = buckets[client], bucket.tokens < 1 else { return 1 }
        return max(1, Int(((1 - bucket.tokens) / rate).rounded(.up)))
    }

    private mutating func evict(at now: Instant) {
        let refill = Duration.seconds(burst / rate)
        buckets = buckets.filter { now.since($0.value.at) < refill }
        while buckets.count >= maximumClients, let oldest = buckets.min(by: { $0.value.at < $1.value.at }) {
            buckets[oldest.key] = nil
        }
    }
}
