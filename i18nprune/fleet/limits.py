"""One rate limit for a whole fleet: each provider endpoint's requests in flight, request pace,
character pace and pause, kept in Redis and taken by one atomic script per admission, on the
server's clock (one clock for every member).

Keys (under `i18nprune:1:limit:{<provider>:<digest>}`, one hash slot per endpoint, gone once
the endpoint is idle):
- `…:pause` exists while the endpoint is paused (a 429's `Retry-After`); its expiry is the end.
- `…:leases`: the requests in flight, a sorted set of lease ids scored by their expiry (µs on
  the server's clock). A lease not renewed expires, so a killed member's leases come back.
- `…:requests`, `…:chars`: when the next request may start (µs) by the request pace and by
  the character pace.

Every method is synchronous and blocking (hosts call them in a thread) and raises
`FleetUnavailable` for any Redis failure (through `FleetServer.call`, which keeps the first one:
every later call raises it again at once); none writes outside those keys.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from i18nprune.fleet.connection import FleetServer, FleetUnavailable
from i18nprune.fleet.store import PREFIX
from i18nprune.system.digests import blake2b

if TYPE_CHECKING:
    pass

BUSY_POLL_SECONDS = 0.02
"""How soon a member asks again when every slot of the endpoint is taken (a release is not
announced; the wait is shorter when a lease expires sooner)."""

# KEYS: pause, leases, requests, chars.
# ARGV: lease id, max concurrency, lease µs, request interval µs, characters' cost µs, pause ms
# to apply first (0: none), busy poll µs.
# Returns {1, 0} when admitted (the lease is held), else {0, µs to wait before asking again}.
_ADMIT = """
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000000 + tonumber(clock[2])
local pause_ms = tonumber(ARGV[6])
if pause_ms > 0 and redis.call('PTTL', KEYS[1]) < pause_ms then
  redis.call('SET', KEYS[1], '1', 'PX', pause_ms)
end
local wait = 0
local paused = redis.call('PTTL', KEYS[1])
if paused > 0 then wait = paused * 1000 end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', string.format('%d', now))
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[2]) then
  local first = redis.call('ZRANGE', KEYS[2], 0, 0, 'WITHSCORES')
  wait = math.max(wait, math.min(tonumber(ARGV[7]), tonumber(first[2]) - now))
end
wait = math.max(wait, tonumber(redis.call('GET', KEYS[3]) or 0) - now)
wait = math.max(wait, tonumber(redis.call('GET', KEYS[4]) or 0) - now)
if wait > 0 then return {0, math.ceil(wait)} end
local lease_us = tonumber(ARGV[3])
redis.call('ZADD', KEYS[2], string.format('%d', now + lease_us), ARGV[1])
local last = redis.call('ZRANGE', KEYS[2], -1, -1, 'WITHSCORES')
redis.call('PEXPIRE', KEYS[2], math.ceil((tonumber(last[2]) - now) / 1000) + 1)
for i, cost in ipairs({tonumber(ARGV[4]), tonumber(ARGV[5])}) do
  if cost > 0 then
    redis.call('SET', KEYS[2 + i], string.format('%d', now + cost), 'PX', math.ceil(cost / 1000))
  end
end
return {1, 0}
"""
# KEYS: pause, leases. ARGV: lease id, lease µs (0: give it back), pause ms (0: none).
# Renews (or removes) the lease if it is still held, then extends the pause; returns 1 if it
# was held.
_LEASE = """
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000000 + tonumber(clock[2])
local held = 0
if redis.call('ZSCORE', KEYS[2], ARGV[1]) then
  held = 1
  if ARGV[2] == '0' then
    redis.call('ZREM', KEYS[2], ARGV[1])
  else
    local expiry = now + tonumber(ARGV[2])
    redis.call('ZADD', KEYS[2], 'XX', string.format('%d', expiry), ARGV[1])
    local last = redis.call('ZRANGE', KEYS[2], -1, -1, 'WITHSCORES')
    redis.call('PEXPIRE', KEYS[2], math.ceil((tonumber(last[2]) - now) / 1000) + 1)
  end
end
local pause_ms = tonumber(ARGV[3])
if pause_ms > 0 and redis.call('PTTL', KEYS[1]) < pause_ms then
  redis.call('SET', KEYS[1], '1', 'PX', pause_ms)
end
return held
"""
# KEYS: pause. ARGV: pause ms. Extends the pause (never shortens it); returns the ms left.
_PAUSE = """
local pause_ms = tonumber(ARGV[1])
if pause_ms > 0 and redis.call('PTTL', KEYS[1]) < pause_ms then
  redis.call('SET', KEYS[1], '1', 'PX', ARGV[1])
end
return math.max(0, redis.call('PTTL', KEYS[1]))
"""


def endpoint_key(provider: str, base_url: str, api_key: str | None) -> str:
    """Where the limit of one endpoint lives: the provider id, and a digest of the base URL
    and the API key (different keys have different limits; neither appears in Redis)."""
    data = f"{provider}\0{base_url}\0{api_key or ''}".encode("utf-8", "surrogatepass")
    return f"{PREFIX}limit:{{{provider}:{blake2b(data, digest_size=16).hexdigest()}}}"


@dataclass(frozen=True, kw_only=True)
class Endpoint:
    """One provider endpoint's limit as the fleet holds it (every member should configure the
    same; each admission applies the limits of the member asking)."""

    key: str
    """`endpoint_key(...)`."""
    max_concurrency: int
    rps: float | None
    rpm: float | None
    chars_per_minute: float | None
    lease_seconds: float
    """How long a lease lasts unless renewed: after that a killed member's request no longer
    counts."""

    @property
    def interval(self) -> float:
        """Seconds between two request starts: the stricter of `rps` and `rpm` (0: no pace)."""
        return max(1.0 / self.rps if self.rps else 0.0, 60.0 / self.rpm if self.rpm else 0.0)

    def cost(self, chars: int) -> float:
        """Seconds of the character pace that `chars` characters take (0: no such limit)."""
        return chars * 60.0 / self.chars_per_minute if self.chars_per_minute else 0.0


@dataclass(frozen=True)
class Admission:
    """The answer to one `FleetLimits.admit`: `lease` (admitted: the request may start and
    must be released), else `wait` (seconds before asking again)."""

    lease: str | None
    wait: float


class FleetLimits:
    """The fleet's rate limits on one Redis server, for one member (`member`, unique per run)."""

    def __init__(self, server: FleetServer, member: str, lease_seconds: float = 30.0) -> None:
        self.server = server
        self.member = member
        self.lease_seconds = lease_seconds
        """How long this member's leases last unless renewed (its requesters renew them every
        third of it while a request runs): a killed member's requests stop counting that long
        after it last renewed them (`cache.claimSeconds`)."""
        client = server.client
        self._leases = itertools.count(1)
        self._admit = client.register_script(_ADMIT)
        self._lease = client.register_script(_LEASE)
        self._pause = client.register_script(_PAUSE)

    @property
    def lost(self) -> FleetUnavailable | None:
        """The failure that lost the server, once one did (`FleetServer.lost`)."""
        return self.server.lost

    def admit(self, endpoint: Endpoint, chars: int = 0, pause: float = 0.0) -> Admission:
        """Let one request of `chars` characters start now, if the endpoint is not paused, has
        a slot free and both paces allow it; else say how long to wait.

        Checked in that order, atomically, after first extending the pause to `pause` seconds
        (a pause this member owes the fleet). Admitted, the request holds a lease for
        `endpoint.lease_seconds` and moves both paces on (a request waits for the characters
        of the one before it; one larger than a minute's worth is never refused for its size).
        """
        lease = f"{self.member}:{next(self._leases)}"
        arguments = [
            lease,
            max(1, endpoint.max_concurrency),
            _micro(endpoint.lease_seconds),
            _micro(endpoint.interval),
            _micro(endpoint.cost(chars)),
            _pause_ms(pause),
            _micro(BUSY_POLL_SECONDS),
        ]
        admitted, wait = self.server.call(self._admit, self._keys(endpoint), arguments)
        if admitted:
            return Admission(lease, 0.0)
        return Admission(None, int(wait) / 1_000_000)

    def renew(self, endpoint: Endpoint, lease: str) -> bool:
        """Extend `lease` by `endpoint.lease_seconds` from now; False when it is no longer
        held (it expired, or the server lost it)."""
        keys = self._keys(endpoint)[:2]
        return bool(self.server.call(self._lease, keys, [lease, _micro(endpoint.lease_seconds), 0]))

    def release(self, endpoint: Endpoint, lease: str, pause: float = 0.0) -> bool:
        """Give `lease` back (its request settled) and, in the same step, extend the pause to
        `pause` seconds (a 429's `Retry-After`, so no member starts a request in between);
        False when the lease was no longer held."""
        keys = self._keys(endpoint)[:2]
        return bool(self.server.call(self._lease, keys, [lease, 0, _pause_ms(pause)]))

    def pause(self, endpoint: Endpoint, seconds: float) -> float:
        """No member may start a request to `endpoint` in the next `seconds` (a pause already
        longer stays); the seconds the pause has left."""
        left = self.server.call(self._pause, [f"{endpoint.key}:pause"], [_pause_ms(seconds)])
        return int(left) / 1000

    @staticmethod
    def _keys(endpoint: Endpoint) -> list[str]:
        return [f"{endpoint.key}:{name}" for name in ("pause", "leases", "requests", "chars")]


def _micro(seconds: float) -> int:
    return max(0, math.ceil(seconds * 1_000_000))


def _pause_ms(seconds: float) -> int:
    """A pause of `seconds` as an expiry in ms (0: none): 1 ms longer, since the server counts
    an expiry from the start of the current millisecond."""
    return math.ceil(seconds * 1000) + 1 if seconds > 0 else 0
