"""An OpenAI-compatible chat-completions endpoint (hosted or a local model server) asked for a
JSON object with exactly one translation per text; the row's instructions for the target and
each text's key paths and description travel in the prompt.
"""

from __future__ import annotations

from typing import Any

import httpx
import msgspec

from i18nprune.locale_codes import per_locale
from i18nprune.pool.messages import FailureKind, ProviderSettings, TextNote

from .errors import bad_response
from .exchange import exchange, mentions_quota, read_as

INSTRUCTIONS = (
    "You are a translation engine for software user interfaces. The user message is a JSON "
    'object {"source": <BCP 47 code>, "target": <BCP 47 code>, "texts": [<item>, ...]}. Each '
    'item is a text, or an object {"text": <text>, "keys": [<key path>, ...], "description": '
    "<what the text is for>} whose keys (where the app shows the text) and description are "
    "context for you: use them to choose the right words, never translate or repeat them. "
    "Translate every text from the source language into the target language. Each text may "
    'contain tokens such as <x id="0"/>: copy every token exactly, unchanged, and keep it where '
    "it belongs in the translated sentence. Do not translate, add or drop tokens. Answer only "
    'the JSON object {"translations": [<string>, ...]} with exactly one translation per item, '
    "in the same order, and nothing else."
)
TARGET_INSTRUCTIONS = "Instructions for this target language, from the project:"
_QUOTA_CODES = frozenset({"insufficient_quota"})


class _Message(msgspec.Struct):
    content: str


class _Choice(msgspec.Struct):
    message: _Message


class _Answer(msgspec.Struct):
    choices: list[_Choice]


class _Item(msgspec.Struct, omit_defaults=True):
    text: str
    keys: list[str] = []
    description: str | None = None


class _Question(msgspec.Struct):
    source: str
    target: str
    texts: list[str | _Item]


class _Content(msgspec.Struct):
    translations: list[str]


class _Problem(msgspec.Struct):
    message: str = ""
    type: str | None = None
    code: str | int | None = None


class _ErrorBody(msgspec.Struct):
    error: _Problem


async def translate(
    client: httpx.AsyncClient,
    settings: ProviderSettings,
    texts: list[str],
    source: str,
    target: str,
    notes: list[TextNote | None],
) -> list[str]:
    """Translate unique `texts` in one chat completion; a text with a note is sent as an
    object with its key paths and description, the settings' instructions for `target` close
    the system message. Raises ProviderError (bad_response when the answer is not the JSON
    object or has the wrong number of translations)."""
    headers = {}
    if settings.api_key is not None:
        headers["Authorization"] = f"Bearer {settings.api_key}"
    system = INSTRUCTIONS
    instructions = per_locale(settings.instructions, target)
    if instructions:
        system = f"{INSTRUCTIONS}\n\n{TARGET_INSTRUCTIONS}\n{instructions}"
    question = _Question(
        source, target, [_item(text, note) for text, note in zip(texts, notes, strict=True)]
    )
    request = client.build_request(
        "POST",
        f"{settings.base_url}/chat/completions",
        headers=headers,
        json={
            "model": settings.model,
            "temperature": 0,
            "response_format": {"type": "json_object"},
            "messages": [
                {"role": "system", "content": system},
                {"role": "user", "content": msgspec.json.encode(question).decode()},
            ],
        },
    )
    answer = await exchange(client, settings, request, _Answer, _read_error)
    if not answer.choices:
        raise bad_response(settings.id, "no choices")
    try:
        content = msgspec.json.decode(answer.choices[0].message.content, type=_Content)
    except msgspec.DecodeError as problem:
        raise bad_response(settings.id, f"the message is not the JSON object ({problem})") from None
    if len(content.translations) != len(texts):
        raise bad_response(
            settings.id, f"{len(content.translations)} translations for {len(texts)} texts"
        )
    return content.translations


def _item(text: str, note: TextNote | None) -> str | _Item:
    if note is None or not (note.keys or note.description):
        return text
    return _Item(text, note.keys, note.description)


def _read_error(status: int, body: Any) -> tuple[str | None, FailureKind | None]:
    problem = read_as(body, _ErrorBody)
    if problem is None:
        return None, None
    said = problem.error.message
    if problem.error.code in _QUOTA_CODES or problem.error.type in _QUOTA_CODES:
        return said, "quota"
    return said, mentions_quota(status, said)
