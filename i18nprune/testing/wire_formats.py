"""The server side of each provider's translate wire format (contracts §2): reading a request
into texts and languages, and writing translations and failures in that provider's own shapes.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import ClassVar, Literal, TypeVar
from urllib.parse import parse_qsl

import msgspec

from i18nprune.testing.loopback import HttpReply, HttpRequest

Failure = Literal[
    "bad_request", "not_found", "too_many", "auth", "quota", "rate_limit", "server_error"
]

_MESSAGES: Mapping[Failure, str] = {
    "bad_request": "bad request",
    "not_found": "not found",
    "too_many": "too many texts",
    "auth": "invalid API key",
    "quota": "quota exceeded",
    "rate_limit": "too many requests",
    "server_error": "internal server error",
}
_STATUSES: Mapping[Failure, int] = {
    "bad_request": 400,
    "not_found": 404,
    "too_many": 400,
    "auth": 403,
    "quota": 429,
    "rate_limit": 429,
    "server_error": 500,
}
_MALFORMED = HttpReply(
    status=200,
    body=b"<html><body>upstream answered something else</body></html>",
    content_type="text/html",
)

_T = TypeVar("_T")
_encode = msgspec.json.encode


class WireCall(msgspec.Struct, frozen=True, kw_only=True):
    """A well-formed translate request: texts, the provider's language codes, the credential it
    carried, whether the texts came as one bare string (answered in kind), and the LLM model.
    """

    texts: list[str]
    source: str | None
    target: str
    credential: str | None
    single: bool = False
    model: str | None = None


class WireError(Exception):
    """A request the provider refuses before translating: wrong route or wrong shape."""

    def __init__(self, failure: Failure, message: str) -> None:
        super().__init__(message)
        self.failure: Failure = failure
        self.message = message


class WireFormat(ABC):
    """One provider's endpoint. Subclasses name the route and implement the shapes."""

    method: ClassVar[str] = "POST"
    path: ClassVar[str]
    content_type: ClassVar[str | None] = "application/json"
    takes_key: ClassVar[bool] = True
    statuses: ClassVar[Mapping[Failure, int]] = _STATUSES

    def parse(self, request: HttpRequest) -> WireCall:
        """The call `request` makes; raises WireError when the provider would refuse it."""
        if (request.method, request.path) != (self.method, self.path):
            raise WireError("not_found", f"no route for {request.method} {request.path}")
        content_type = request.headers.get("content-type", "")
        if self.content_type is not None and not content_type.startswith(self.content_type):
            raise WireError("bad_request", f"content-type must be {self.content_type}")
        call = self._parse(request)
        if not call.texts:
            raise WireError("bad_request", "no text to translate")
        return call

    @abstractmethod
    def translations(self, call: WireCall, translations: list[str]) -> HttpReply:
        """The success answer carrying `translations` (their count is the caller's business)."""

    def failure(self, failure: Failure, message: str | None = None) -> HttpReply:
        """The provider's answer for `failure`, in its status and error body shape."""
        status = self.statuses[failure]
        return self._error_reply(failure, status, message or _MESSAGES[failure])

    def malformed(self, call: WireCall) -> HttpReply:
        """A 200 answer a client cannot read translations from."""
        return _MALFORMED

    @abstractmethod
    def _parse(self, request: HttpRequest) -> WireCall:
        """The call in a request already known to be on this route."""

    @abstractmethod
    def _error_reply(self, failure: Failure, status: int, message: str) -> HttpReply:
        """The provider's error answer with this status and message."""


def _decode(decoder: msgspec.json.Decoder[_T], body: bytes | str) -> _T:
    try:
        return decoder.decode(body)
    except msgspec.DecodeError as problem:
        raise WireError("bad_request", f"invalid request body: {problem}") from None


def _query(request: HttpRequest) -> dict[str, str]:
    return dict(parse_qsl(request.query, keep_blank_values=True))


def _texts(q: list[str] | str) -> tuple[list[str], bool]:
    return ([q], True) if isinstance(q, str) else (q, False)


class GooglePublicWire(WireFormat):
    """`POST /translate_a/t?client=gtx&sl=..&tl=..`, form body of `q`s; a JSON list of strings
    (a bare string for a single `q`); errors are plain text.
    """

    path = "/translate_a/t"
    content_type = "application/x-www-form-urlencoded"
    takes_key = False

    def _parse(self, request: HttpRequest) -> WireCall:
        query = _query(request)
        try:
            form = parse_qsl(request.body.decode(), keep_blank_values=True, strict_parsing=True)
        except (UnicodeDecodeError, ValueError):
            raise WireError("bad_request", "form body is not url-encoded UTF-8") from None
        texts = [value for name, value in form if name == "q"]
        if query.get("client") != "gtx" or not query.get("sl") or not query.get("tl"):
            raise WireError("bad_request", "query needs client=gtx, sl and tl")
        return WireCall(texts=texts, source=query["sl"], target=query["tl"], credential=None)

    def translations(self, call: WireCall, translations: list[str]) -> HttpReply:
        if len(call.texts) == 1 and len(translations) == 1:
            return HttpReply(status=200, body=_encode(translations[0]))
        return HttpReply(status=200, body=_encode(translations))

    def _error_reply(self, failure: Failure, status: int, message: str) -> HttpReply:
        return HttpReply(status=status, body=message.encode(), content_type="text/plain")


class _CloudRequest(msgspec.Struct, frozen=True):
    q: list[str] | str
    target: str
    source: str | None = None


class GoogleCloudWire(WireFormat):
    """Cloud Translation v2: `POST /language/translate/v2?key=..`, errors
    `{"error": {"code", "message", "errors": [{"reason"}]}}` (quota: 403 dailyLimitExceeded).
    """

    path = "/language/translate/v2"
    statuses: ClassVar[Mapping[Failure, int]] = {**_STATUSES, "quota": 403}
    _reasons: ClassVar[Mapping[Failure, str]] = {
        "bad_request": "badRequest",
        "not_found": "notFound",
        "too_many": "invalid",
        "auth": "forbidden",
        "quota": "dailyLimitExceeded",
        "rate_limit": "rateLimitExceeded",
        "server_error": "backendError",
    }
    _decoder = msgspec.json.Decoder(_CloudRequest)

    def _parse(self, request: HttpRequest) -> WireCall:
        body = _decode(self._decoder, request.body)
        texts, single = _texts(body.q)
        credential = _query(request).get("key")
        return WireCall(
            texts=texts,
            source=body.source,
            target=body.target,
            credential=credential,
            single=single,
        )

    def translations(self, call: WireCall, translations: list[str]) -> HttpReply:
        items = [{"translatedText": text} for text in translations]
        return HttpReply(status=200, body=_encode({"data": {"translations": items}}))

    def _error_reply(self, failure: Failure, status: int, message: str) -> HttpReply:
        reason = {"message": message, "domain": "global", "reason": self._reasons[failure]}
        error = {"code": status, "message": message, "errors": [reason]}
        return HttpReply(status=status, body=_encode({"error": error}))


class _DeeplRequest(msgspec.Struct, frozen=True):
    text: list[str]
    target_lang: str
    source_lang: str | None = None
    formality: str | None = None


# DeepL's target languages with formality, and its formality values (it refuses others).
_DEEPL_FORMALITY_TARGETS = frozenset(
    {"DE", "FR", "IT", "ES", "ES-419", "NL", "PL", "PT-BR", "PT-PT", "JA", "RU"}
)
_DEEPL_FORMALITY = frozenset({"default", "more", "less", "prefer_more", "prefer_less"})


class DeeplWire(WireFormat):
    """DeepL v2: `POST /v2/translate` with `Authorization: DeepL-Auth-Key ..`, errors
    `{"message": ..}` (quota: 456, too many texts: 413; 400 for a formality DeepL does not know,
    or `more`/`less` for a target without formality, as DeepL does).
    """

    path = "/v2/translate"
    statuses: ClassVar[Mapping[Failure, int]] = {**_STATUSES, "quota": 456, "too_many": 413}
    _decoder = msgspec.json.Decoder(_DeeplRequest)

    def _parse(self, request: HttpRequest) -> WireCall:
        body = _decode(self._decoder, request.body)
        formality = body.formality
        if formality is not None and formality not in _DEEPL_FORMALITY:
            raise WireError("bad_request", f"Value for 'formality' not supported: {formality}")
        if formality in ("more", "less") and body.target_lang not in _DEEPL_FORMALITY_TARGETS:
            raise WireError("bad_request", "'formality' is not supported for given 'target_lang'")
        authorization = request.headers.get("authorization", "")
        scheme, _, key = authorization.partition(" ")
        return WireCall(
            texts=body.text,
            source=body.source_lang,
            target=body.target_lang,
            credential=key if scheme == "DeepL-Auth-Key" else None,
        )

    def translations(self, call: WireCall, translations: list[str]) -> HttpReply:
        detected = call.source or "EN"
        items = [{"detected_source_language": detected, "text": text} for text in translations]
        return HttpReply(status=200, body=_encode({"translations": items}))

    def _error_reply(self, failure: Failure, status: int, message: str) -> HttpReply:
        return HttpReply(status=status, body=_encode({"message": message}))


class _LibreRequest(msgspec.Struct, frozen=True):
    q: list[str] | str
    source: str
    target: str
    api_key: str | None = None


class LibreWire(WireFormat):
    """LibreTranslate: `POST /translate` with `api_key` in the body, errors `{"error": ..}`
    (quota: 429 whose message says "quota").
    """

    path = "/translate"
    _decoder = msgspec.json.Decoder(_LibreRequest)

    def _parse(self, request: HttpRequest) -> WireCall:
        body = _decode(self._decoder, request.body)
        texts, single = _texts(body.q)
        return WireCall(
            texts=texts,
            source=body.source,
            target=body.target,
            credential=body.api_key,
            single=single,
        )

    def translations(self, call: WireCall, translations: list[str]) -> HttpReply:
        if call.single and len(translations) == 1:
            return HttpReply(status=200, body=_encode({"translatedText": translations[0]}))
        return HttpReply(status=200, body=_encode({"translatedText": translations}))

    def _error_reply(self, failure: Failure, status: int, message: str) -> HttpReply:
        return HttpReply(status=status, body=_encode({"error": message}))


class _AzureText(msgspec.Struct, frozen=True, rename={"text": "Text"}):
    text: str


class AzureWire(WireFormat):
    """Azure Translator v3: `POST /translate?api-version=3.0&from=..&to=..` with
    `Ocp-Apim-Subscription-Key`, errors `{"error": {"code": 6 digits, "message"}}`
    (auth: 401 401000, quota: 403 403001).
    """

    path = "/translate"
    statuses: ClassVar[Mapping[Failure, int]] = {**_STATUSES, "auth": 401, "quota": 403}
    _codes: ClassVar[Mapping[Failure, int]] = {
        "bad_request": 400000,
        "not_found": 404001,
        "too_many": 400077,
        "auth": 401000,
        "quota": 403001,
        "rate_limit": 429001,
        "server_error": 500000,
    }
    _decoder = msgspec.json.Decoder(list[_AzureText])

    def _parse(self, request: HttpRequest) -> WireCall:
        query = _query(request)
        if query.get("api-version") != "3.0" or not query.get("to"):
            raise WireError("bad_request", "query needs api-version=3.0 and to")
        body = _decode(self._decoder, request.body)
        return WireCall(
            texts=[item.text for item in body],
            source=query.get("from"),
            target=query["to"],
            credential=request.headers.get("ocp-apim-subscription-key"),
        )

    def translations(self, call: WireCall, translations: list[str]) -> HttpReply:
        items = [{"translations": [{"text": text, "to": call.target}]} for text in translations]
        return HttpReply(status=200, body=_encode(items))

    def _error_reply(self, failure: Failure, status: int, message: str) -> HttpReply:
        error = {"code": self._codes[failure], "message": message}
        return HttpReply(status=status, body=_encode({"error": error}))


class _ChatMessage(msgspec.Struct, frozen=True):
    role: str
    content: str


class _ChatRequest(msgspec.Struct, frozen=True):
    model: str
    messages: list[_ChatMessage]


class _LlmItem(msgspec.Struct, frozen=True):
    text: str
    keys: list[str] = []
    description: str | None = None


class _LlmTask(msgspec.Struct, frozen=True):
    source: str
    target: str
    texts: list[str | _LlmItem]


class LlmWire(WireFormat):
    """OpenAI-compatible `POST /chat/completions` with `Authorization: Bearer ..`; the last user
    message is the JSON task (each text a string, or an object with its `text`), the answer
    `{"translations": [..]}` is choices[0].message.content; errors `{"error": {"message",
    "type", "code"}}` (quota: 429 insufficient_quota).
    """

    path = "/chat/completions"
    statuses: ClassVar[Mapping[Failure, int]] = {**_STATUSES, "auth": 401}
    _types: ClassVar[Mapping[Failure, tuple[str, str | None]]] = {
        "bad_request": ("invalid_request_error", None),
        "not_found": ("invalid_request_error", "unknown_url"),
        "too_many": ("invalid_request_error", "context_length_exceeded"),
        "auth": ("invalid_request_error", "invalid_api_key"),
        "quota": ("insufficient_quota", "insufficient_quota"),
        "rate_limit": ("requests", "rate_limit_exceeded"),
        "server_error": ("server_error", None),
    }
    _decoder = msgspec.json.Decoder(_ChatRequest)
    _task_decoder = msgspec.json.Decoder(_LlmTask)

    def _parse(self, request: HttpRequest) -> WireCall:
        body = _decode(self._decoder, request.body)
        users = [message for message in body.messages if message.role == "user"]
        if not users:
            raise WireError("bad_request", "no user message")
        task = _decode(self._task_decoder, users[-1].content)
        scheme, _, key = request.headers.get("authorization", "").partition(" ")
        return WireCall(
            texts=[item if isinstance(item, str) else item.text for item in task.texts],
            source=task.source,
            target=task.target,
            credential=key if scheme == "Bearer" else None,
            model=body.model,
        )

    def translations(self, call: WireCall, translations: list[str]) -> HttpReply:
        content = _encode({"translations": translations}).decode()
        return self._completion(call, content)

    def malformed(self, call: WireCall) -> HttpReply:
        # The way models really fail: chatter instead of the JSON object.
        return self._completion(call, "Sure! Here are your translations:\n1. ...")

    def _completion(self, call: WireCall, content: str) -> HttpReply:
        message = {"role": "assistant", "content": content}
        choice = {"index": 0, "message": message, "finish_reason": "stop"}
        answer = {
            "id": "chatcmpl-fake",
            "object": "chat.completion",
            "model": call.model,
            "choices": [choice],
        }
        return HttpReply(status=200, body=_encode(answer))

    def _error_reply(self, failure: Failure, status: int, message: str) -> HttpReply:
        kind, code = self._types[failure]
        return HttpReply(
            status=status, body=_encode({"error": {"message": message, "type": kind, "code": code}})
        )


class MyMemoryWire(WireFormat):
    """MyMemory: `GET /get?q=..&langpair=en|fr[&key=..]`, one text per request; quota is HTTP 200
    with `responseStatus: 429` and `quotaFinished: true`; other errors carry their status in both.
    """

    method = "GET"
    path = "/get"
    content_type = None
    statuses: ClassVar[Mapping[Failure, int]] = {**_STATUSES, "quota": 200}

    def _parse(self, request: HttpRequest) -> WireCall:
        query = _query(request)
        source, bar, target = query.get("langpair", "").partition("|")
        if "q" not in query or not bar or not source or not target:
            raise WireError("bad_request", "query needs q and langpair=<source>|<target>")
        return WireCall(
            texts=[query["q"]], source=source, target=target, credential=query.get("key")
        )

    def translations(self, call: WireCall, translations: list[str]) -> HttpReply:
        text = translations[0] if translations else None
        return self._answer(200, 200, text, "", quota_finished=False)

    def _error_reply(self, failure: Failure, status: int, message: str) -> HttpReply:
        if failure == "quota":
            warning = "MYMEMORY WARNING: YOU USED ALL AVAILABLE FREE TRANSLATIONS FOR TODAY"
            return self._answer(status, 429, warning, message, quota_finished=True)
        return self._answer(status, status, message.upper(), message, quota_finished=False)

    def _answer(
        self, status: int, inner: int, text: str | None, details: str, *, quota_finished: bool
    ) -> HttpReply:
        answer = {
            "responseData": {"translatedText": text, "match": 1 if inner == 200 else 0},
            "quotaFinished": quota_finished,
            "responseStatus": inner,
            "responseDetails": details,
            "matches": [],
        }
        return HttpReply(status=status, body=_encode(answer))


# The wire format of every provider that has a fake, by provider id.
WIRE_FORMATS: Mapping[str, WireFormat] = {
    "google": GooglePublicWire(),
    "google-cloud": GoogleCloudWire(),
    "deepl": DeeplWire(),
    "libre": LibreWire(),
    "azure": AzureWire(),
    "llm": LlmWire(),
    "mymemory": MyMemoryWire(),
}
