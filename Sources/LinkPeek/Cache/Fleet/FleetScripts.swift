/// The Lua scripts fleet mode runs in Redis: each is one atomic step (Redis
/// runs a script with nothing in between), so that two daemons can never
/// interleave inside one.
enum FleetScripts {
    /// Reads an entry and counts a hit (or, with `ARGV[1]` = 1, a miss) for
    /// `fleet stats`, in one round trip. KEYS: entry, stats hash.
    static let read = """
        local value = redis.call('GET', KEYS[1])
        if value then
            redis.call('HINCRBY', KEYS[2], 'hits', 1)
        elseif ARGV[1] == '1' then
            redis.call('HINCRBY', KEYS[2], 'misses', 1)
        end
        return value
        """

    /// Renews a lock only if this owner still holds it (compare-and-expire).
    /// KEYS: lock; ARGV: owner, milliseconds. Returns 1 when renewed.
    static let renew = """
        if redis.call('GET', KEYS[1]) == ARGV[1] then
            return redis.call('PEXPIRE', KEYS[1], ARGV[2])
        end
        return 0
        """

    /// Releases a lock only if this owner still holds it (compare-and-delete:
    /// a holder whose lock expired and was taken over never releases the
    /// new holder's), then tells the waiters the key is done either way.
    /// KEYS: lock; ARGV: owner, channel, key. Returns 1 when released.
    static let release = """
        local released = 0
        if redis.call('GET', KEYS[1]) == ARGV[1] then
            released = redis.call('DEL', KEYS[1])
        end
        redis.call('PUBLISH', ARGV[2], ARGV[3])
        return released
        """

    /// One request to a host through its token bucket: `rate` tokens a
    /// second, at most `burst` kept, the time from Redis's own clock (one
    /// clock for the whole fleet). A request that finds no token reserves
    /// the next one (the count goes below zero) and is told how long to
    /// wait for it, in milliseconds; so the waiting requests go out spaced
    /// at the rate, in the order they asked. One that could not wait that
    /// long (`ARGV[3]`, its time left) takes nothing and gets -1.
    /// A throttled host is noted (with the time) for `fleet stats`.
    ///
    /// The bucket is a hash so that more may gate a host later: a shared
    /// `Retry-After` would be one more field (`until`, a time in ms), set by
    /// a second small script, and this one would wait for max(token, until).
    ///
    /// KEYS: bucket, throttled set; ARGV: rate, burst, longest wait (ms), host.
    static let take = """
        local clock = redis.call('TIME')
        local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
        local rate = tonumber(ARGV[1])
        local burst = tonumber(ARGV[2])
        local longest = tonumber(ARGV[3])
        local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
        local tokens = tonumber(state[1])
        local at = tonumber(state[2])
        if tokens == nil or at == nil then
            tokens = burst
            at = now
        end
        if now > at then
            tokens = math.min(burst, tokens + (now - at) * rate / 1000)
            at = now
        end
        local wait = 0
        if tokens < 1 then
            wait = math.ceil((1 - tokens) * 1000 / rate)
            if wait > longest then
                return -1
            end
            redis.call('ZADD', KEYS[2], now, ARGV[4])
            redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - 3600000)
        end
        tokens = tokens - 1
        redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(at))
        redis.call('PEXPIRE', KEYS[1], math.ceil((burst - tokens) * 1000 / rate) + 1000)
        return wait
        """
}
