"""The frames exchanged between the pool and a worker process (msgpack, tagged), and the wire
types they carry: the settings of the provider a batch goes to (with the options that shape its
translations), what is known of each text (`TextNote`), and how a batch failed.

The pool sends `Batch`, `Cancel` and `Shutdown`; a worker answers `Ready` once, then exactly one of
`Result`, `Failure` or `Cancelled` per batch.
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from i18nprune.config.secrets import REDACTED, redact_url_credentials
from i18nprune.locale_codes import per_locale
from i18nprune.system.digests import sha256

FailureKind = Literal["rate_limited", "quota", "auth", "transient", "bad_response"]

NOTE_KEYS = 3
"""The key paths one text's note names at most (a text many keys share is sent once)."""


class TextNote(msgspec.Struct, frozen=True, array_like=True, omit_defaults=True):
    """What a provider may know about one text besides the text: the key paths that show it
    (the first few) and what it is for (a description from `*.meta.json` or an `i18n:`
    comment). Only adapters that read notes (`ProviderSettings.reads_notes`) are sent any."""

    keys: list[str] = []
    description: str | None = None

    def merged(self, other: TextNote | None) -> TextNote:
        """This note and `other`'s (the note of another key with the same text): the first
        NOTE_KEYS key paths of both, and this description, else the other's."""
        if other is None or other == self:
            return self
        keys = list(dict.fromkeys([*self.keys, *other.keys]))[:NOTE_KEYS]
        return TextNote(keys, self.description or other.description)


DEFAULT_LLM_MODEL = "gpt-4o-mini"
"""The `llm` provider's chat model when neither the row nor the environment names one."""


class ProviderSettings(msgspec.Struct, frozen=True, kw_only=True):
    """Everything a worker needs to call one provider; crosses the pipe to workers.

    Its repr shows the API key as `***`, never its value, and credentials inside the base URL
    likewise.
    """

    id: str
    base_url: str
    api_key: str | None
    model: str | None
    region: str | None
    batch_size: int
    timeout_seconds: float
    max_concurrency: int
    rps: float | None
    rpm: float | None
    chars_per_minute: float | None = None
    """Characters of texts sent per minute (`rateLimit.charsPerMinute`); None: no limit."""
    formality: dict[str, str] = {}
    """DeepL formality per target (normalised code or `*`); see `per_locale`."""
    context: str | None = None
    """DeepL `context`: text about the whole project, sent with every request, not translated."""
    instructions: dict[str, str] = {}
    """LLM instructions per target (normalised code or `*`): tone, formality, terminology."""
    reads_notes: bool = False
    """The adapter uses per-text notes (`TextNote`); batches to other providers carry none."""

    def options_for(self, target: str) -> dict[str, str]:
        """The options that shape translations into `target` (empty when none does): what
        the translation cache must tell apart."""
        options: dict[str, str] = {}
        formality = per_locale(self.formality, target)
        if formality is not None and formality != "default":
            options["formality"] = formality
        if self.context:
            options["context"] = self.context
        instructions = per_locale(self.instructions, target)
        if instructions:
            options["instructions"] = instructions
        if self.model is not None and self.model != DEFAULT_LLM_MODEL:
            # Another model words it otherwise. The default stays out of the fingerprint, so
            # the translations cached before the model counted stay valid for it.
            options["model"] = self.model
        return options

    def cache_provider(self, target: str) -> str:
        """The provider name translations into `target` are cached under: the id, followed by
        a fingerprint of `options_for(target)` when there are any, so a translation made with
        other options is never reused (and one made without any stays valid)."""
        options = self.options_for(target)
        if not options:
            return self.id
        digest = sha256(msgspec.json.encode(options, order="sorted")).hexdigest()
        return f"{self.id}~{digest[:16]}"

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={value!r}" for name, value in self.__rich_repr__())
        return f"ProviderSettings({fields})"

    def __rich_repr__(self) -> list[tuple[str, Any]]:
        """The fields as rich's pretty printer and tracebacks show them: the key as `***`, and
        credentials inside the base URL too."""
        fields = {name: getattr(self, name) for name in self.__struct_fields__}
        if self.api_key is not None:
            fields["api_key"] = REDACTED
        fields["base_url"] = redact_url_credentials(self.base_url)
        return list(fields.items())


class Ready(msgspec.Struct, frozen=True, tag=True, array_like=True):
    """The worker is up and reads batches."""

    pid: int


class Batch(msgspec.Struct, frozen=True, tag=True, array_like=True):
    """Translate `texts` (masked) with one provider; `id` is unique within the pool. `notes`,
    when given, has one entry per text (None: nothing known of it)."""

    id: int
    settings: ProviderSettings
    source: str
    target: str
    texts: list[str]
    notes: list[TextNote | None] | None = None


class Cancel(msgspec.Struct, frozen=True, tag=True, array_like=True):
    """Stop batch `id` (its HTTP request is aborted); answered by `Cancelled` unless it settled."""

    id: int


class Shutdown(msgspec.Struct, frozen=True, tag=True, array_like=True):
    """Stop everything and exit."""


class Result(msgspec.Struct, frozen=True, tag=True, array_like=True):
    """Batch `id` translated: one translation per text, in order. `requests` HTTP requests
    took `http_seconds` in all (what the worker measured around them)."""

    id: int
    translations: list[str]
    requests: int = 0
    http_seconds: float = 0.0


class Failure(msgspec.Struct, frozen=True, tag=True, array_like=True):
    """Batch `id` failed; `message` never contains a secret. `requests` and `http_seconds` as
    for Result (zero when the batch failed before any request was sent)."""

    id: int
    kind: FailureKind
    message: str
    retry_after: float | None
    status: int | None
    requests: int = 0
    http_seconds: float = 0.0


class Cancelled(msgspec.Struct, frozen=True, tag=True, array_like=True):
    """Batch `id` was cancelled before it settled."""

    id: int


ToWorker = Batch | Cancel | Shutdown
FromWorker = Ready | Result | Failure | Cancelled

encoder = msgspec.msgpack.Encoder()
to_worker_decoder = msgspec.msgpack.Decoder(ToWorker)
from_worker_decoder = msgspec.msgpack.Decoder(FromWorker)
