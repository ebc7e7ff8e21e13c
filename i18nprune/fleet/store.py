"""The fleet's records in Redis: translations, and the claims members take on texts before
sending them.

Keys (all under `i18nprune:1:`, the layout's version):
- `tm:<digest>` → a translation, filed under the BLAKE2b-128 digest of (cached provider name,
  source, target, unit key): exactly what the local cache is keyed by. No expiry: the server's
  `maxmemory-policy` decides what a full memory forgets.
- `claim:<digest>` → `w:<member>` while a member sends the text (expires after `claim_ms`
  unless the member renews it, so a dead member's claims come back), then `d:<translation>`
  for DONE_MS (what members waiting for the text read), keyed by (cached provider name,
  source, target, the masked text sent).

Every method is synchronous and blocking (hosts call them in a thread) and raises
`FleetUnavailable` for any Redis failure (through `FleetServer.call`, which keeps the first one:
every later call raises it again at once); none writes outside those keys.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

from i18nprune.fleet.connection import FleetServer, FleetUnavailable
from i18nprune.system.digests import blake2b

if TYPE_CHECKING:
    pass

_T = TypeVar("_T")

PREFIX = "i18nprune:1:"
CHUNK = 1000
"""Keys per command (MGET, MSET, a script): replies stay small and the server responsive."""
DONE_MS = 3_600_000
"""How long the translation of a claimed text stays readable from its claim (members that
planned before it arrived find it there; later ones find it in the memory)."""
CLAIM_MS = 30_000
"""How long a claim lasts unless renewed (members renew theirs while the request is out), by
default (`cache.claimSeconds`)."""

# KEYS: claim keys; ARGV[1]: this member's mark ("w:<member>"), ARGV[2]: expiry in ms.
# Returns, per key, "" when this member holds it now, else what it holds ("w:…" or "d:…").
_CLAIM = """
local taken = {}
for i, key in ipairs(KEYS) do
  if redis.call('SET', key, ARGV[1], 'NX', 'PX', ARGV[2]) then
    taken[i] = ''
  else
    local held = redis.call('GET', key)
    if held == ARGV[1] then
      redis.call('PEXPIRE', key, ARGV[2])
      taken[i] = ''
    else
      taken[i] = held or 'w:'
    end
  end
end
return taken
"""
# KEYS: claim keys; ARGV[1]: this member's mark, ARGV[2]: expiry in ms (0: give them up).
# Renews (or deletes) only the claims this member still holds; returns how many.
_RENEW = """
local count = 0
for _, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then
    if ARGV[2] == '0' then redis.call('DEL', key) else redis.call('PEXPIRE', key, ARGV[2]) end
    count = count + 1
  end
end
return count
"""


@dataclass(frozen=True)
class Scope:
    """What a translation depends on besides its text: the provider's cached name (its id and
    options fingerprint) and the language pair."""

    provider: str
    source: str
    target: str

    def digest(self, text: str) -> str:
        data = f"{self.provider}\0{self.source}\0{self.target}\0{text}"
        return blake2b(data.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


@dataclass(frozen=True)
class Claimed:
    """What a claim found for each text: `mine` (this member sends them), `done` (text →
    translation another member got), `held` (another member is sending them)."""

    mine: list[str]
    done: dict[str, str]
    held: list[str]


class FleetStore:
    """The fleet's records on one Redis server, for one member (`member`, unique per run),
    whose claims last `claim_ms` unless renewed."""

    def __init__(self, server: FleetServer, member: str, claim_ms: int = CLAIM_MS) -> None:
        self.server = server
        self.member = member
        self.claim_ms = claim_ms
        client = server.client
        self._mark = f"w:{member}"
        self._claim = client.register_script(_CLAIM)
        self._renew = client.register_script(_RENEW)

    def get(self, scope: Scope, keys: Sequence[str]) -> dict[str, str]:
        """The translations the memory has of `keys` (unit keys), by key."""
        found: dict[str, str] = {}
        for chunk in _chunks(list(keys)):
            names = [self._memory_key(scope, key) for key in chunk]
            values = self.server.call(self.server.client.mget, names)
            found.update(
                (key, value) for key, value in zip(chunk, values, strict=True) if value is not None
            )
        return found

    def put(self, scope: Scope, entries: Iterable[tuple[str, str]]) -> None:
        """Store `(unit key, translation)` entries (replacing older ones)."""
        for chunk in _chunks(list(entries)):
            mapping = {self._memory_key(scope, key): text for key, text in chunk}
            self.server.call(self.server.client.mset, mapping)

    def claim(self, scope: Scope, texts: Sequence[str]) -> Claimed:
        """Claim each of `texts` (masked texts to send) for `claim_ms`, unless another member
        holds it or it is done; a claim this member holds already is renewed."""
        mine: list[str] = []
        done: dict[str, str] = {}
        held: list[str] = []
        for chunk in _chunks(list(dict.fromkeys(texts))):
            keys = [self._claim_key(scope, text) for text in chunk]
            found = self.server.call(self._claim, keys, [self._mark, self.claim_ms])
            for text, state in zip(chunk, found, strict=True):
                if state == "":
                    mine.append(text)
                elif state.startswith("d:"):
                    done[text] = state[2:]
                else:
                    held.append(text)
        return Claimed(mine, done, held)

    def renew(self, scope: Scope, texts: Sequence[str]) -> int:
        """Extend this member's claims on `texts` by `claim_ms`; how many it still held."""
        return self._mine(scope, texts, str(self.claim_ms))

    def release(self, scope: Scope, texts: Sequence[str]) -> int:
        """Give up this member's claims on `texts` (they were not translated), so another
        member may send them at once; how many it held."""
        return self._mine(scope, texts, "0")

    def settle(self, scope: Scope, translations: dict[str, str]) -> None:
        """Record the translations of claimed texts (masked text → masked translation) where
        members waiting for them read them."""
        for chunk in _chunks(list(translations.items())):
            pipe = self.server.client.pipeline(transaction=False)
            for text, translation in chunk:
                pipe.set(self._claim_key(scope, text), f"d:{translation}", px=DONE_MS)
            self.server.call(pipe.execute)

    @property
    def lost(self) -> FleetUnavailable | None:
        """The failure that lost the server, once one did (`FleetServer.lost`)."""
        return self.server.lost

    def close(self) -> None:
        """Close the connections (idempotent)."""
        self.server.close()

    def _mine(self, scope: Scope, texts: Sequence[str], expiry: str) -> int:
        count = 0
        for chunk in _chunks(list(dict.fromkeys(texts))):
            keys = [self._claim_key(scope, text) for text in chunk]
            count += int(self.server.call(self._renew, keys, [self._mark, expiry]))
        return count

    @staticmethod
    def _memory_key(scope: Scope, key: str) -> str:
        return f"{PREFIX}tm:{scope.digest(key)}"

    @staticmethod
    def _claim_key(scope: Scope, text: str) -> str:
        return f"{PREFIX}claim:{scope.digest(text)}"


def _chunks(items: list[_T]) -> Iterable[list[_T]]:
    for start in range(0, len(items), CHUNK):
        yield items[start : start + CHUNK]
