"""The connection to the fleet's Redis: the URL a run names (`cache.url`, `I18NPRUNE_CACHE_URL`,
`--cache-url`), checked and shown without its password, and a client that fails with one
sentence naming the server instead of a traceback.

Guarantees: no function here prints or raises a message holding the URL's password (`shown`
redacts it everywhere); `connect` either returns a server whose client answered PING or raises
`FleetUnavailable`; every later Redis failure goes through `FleetServer.call`, which turns it
into `FleetUnavailable` saying what failed and what to do, and keeps it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from i18nprune.config.secrets import redact_url_credentials

if TYPE_CHECKING:
    import redis

SCHEMES = ("redis", "rediss", "unix")
"""The URL schemes of a shared memory: TCP, TCP with TLS, a Unix socket."""
CONNECT_TIMEOUT_SECONDS = 5.0
"""How long a run waits for the server to accept a connection."""
COMMAND_TIMEOUT_SECONDS = 10.0
"""How long one command may take before the server counts as lost (a full or stuck server
must be an error, not a hang)."""


class FleetUnavailable(Exception):
    """The shared memory cannot be used: unreachable, refused, full or lost. The message is one
    sentence naming the server (password redacted) and what to do."""


def shown(url: str) -> str:
    """`url` as it may be printed: the password (userinfo, or a `password=` query) as ***."""
    return redact_url_credentials(url)


def url_problem(url: str) -> str | None:
    """Why `url` is not a shared memory URL, or None when it is one (not whether it answers)."""
    try:
        parts = urlsplit(url)
    except ValueError as exc:
        return f"`{shown(url)}` is not a URL ({exc})"
    if parts.scheme not in SCHEMES:
        return (
            f"`{shown(url)}` is not a Redis URL: use redis://HOST:PORT/DB, rediss:// (TLS) or "
            "unix:///PATH/TO/SOCKET"
        )
    if parts.scheme == "unix" and not parts.path:
        return f"`{shown(url)}` names no socket: use unix:///PATH/TO/SOCKET"
    if parts.scheme != "unix" and not parts.hostname:
        return f"`{shown(url)}` names no host: use {parts.scheme}://HOST:PORT/DB"
    try:
        parts.port  # noqa: B018 - raises for a port that is not a number
    except ValueError:
        return f"`{shown(url)}` has a port that is not a number"
    return None


class FleetServer:
    """The fleet's Redis as one run reaches it (`connect` makes one): one client, shared by the
    records kept there (`store.FleetStore`, `limits.FleetLimits`), and one record of the failure
    that lost the server (`lost`): once a command failed, every later `call` raises the same
    FleetUnavailable at once, without waiting on a server that is gone."""

    def __init__(self, client: redis.Redis, url: str) -> None:
        self.client = client
        self.url = url
        self.lost: FleetUnavailable | None = None
        """The failure that lost the server, once one did."""

    def call(self, command: Callable[..., Any], *arguments: Any) -> Any:
        """`command(*arguments)` (a client method, a registered script or a pipeline's
        `execute`); any Redis failure becomes FleetUnavailable and is kept in `lost`."""
        import redis

        if self.lost is not None:
            raise FleetUnavailable(str(self.lost))
        try:
            return command(*arguments)
        except (redis.RedisError, OSError) as failure:
            self.lost = unavailable(self.url, failure)
            raise FleetUnavailable(str(self.lost)) from None

    def close(self) -> None:
        """Close the connections (idempotent; closing a lost connection reports nothing)."""
        import redis

        with contextlib.suppress(redis.RedisError, OSError):
            self.client.close()


def connect(url: str) -> FleetServer:
    """The server at `url`, whose client answered PING (decoding replies as UTF-8).

    Raises FleetUnavailable when `url` is not a Redis URL, the server does not answer within
    CONNECT_TIMEOUT_SECONDS, or refuses the client (authentication, TLS). Synchronous and
    blocking: hosts call it in a thread.
    """
    problem = url_problem(url)
    if problem is not None:
        raise FleetUnavailable(f"cache.url {problem}")
    import redis
    from redis.backoff import ExponentialBackoff
    from redis.retry import Retry

    try:
        client = redis.Redis.from_url(
            url,
            decode_responses=True,
            socket_connect_timeout=CONNECT_TIMEOUT_SECONDS,
            socket_timeout=COMMAND_TIMEOUT_SECONDS,
            # A blip is retried twice; a server that is gone fails the run in seconds.
            retry=Retry(ExponentialBackoff(cap=1.0, base=0.05), 2),
            client_name="i18nprune",
        )
        client.ping()
    except (redis.RedisError, OSError, ValueError) as failure:
        raise unavailable(url, failure, starting=True) from None
    return FleetServer(client, url)


def unavailable(url: str, failure: BaseException, *, starting: bool = False) -> FleetUnavailable:
    """The FleetUnavailable a Redis `failure` on `url` amounts to: what happened, in one
    sentence with what to do; never the password."""
    import redis.exceptions as errors

    where = f"the shared translation memory {shown(url)}"
    detail = shown(str(failure)) or type(failure).__name__
    if isinstance(failure, errors.OutOfMemoryError) or detail.startswith("OOM"):
        return FleetUnavailable(
            f"{where} is full ({detail}): raise its maxmemory, or set maxmemory-policy "
            "allkeys-lru so it forgets the oldest translations"
        )
    if isinstance(failure, errors.AuthenticationError | errors.AuthorizationError):
        return FleetUnavailable(
            f"{where} refused the client ({detail}): check the user and password in the URL"
        )
    if isinstance(failure, errors.ReadOnlyError):
        return FleetUnavailable(f"{where} is a read-only replica: point cache.url at the primary")
    if starting:
        return FleetUnavailable(
            f"{where} cannot be reached ({detail}): start the server or fix cache.url "
            "(I18NPRUNE_CACHE_URL, --cache-url); nothing was sent or written"
        )
    return FleetUnavailable(
        f"{where} was lost during the run ({detail}): translations that arrived are kept in "
        "the local cache; run again once the server is back"
    )
