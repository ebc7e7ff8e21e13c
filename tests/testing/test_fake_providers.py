"""The loopback fake providers speak each wire format, apply their knobs and faults, record what
they saw, and start and stop cleanly."""

from __future__ import annotations

import http.client
import json
import threading
import time
from collections.abc import Callable
from functools import partial
from typing import Any

import httpx
import pytest
import trio

import i18nprune.testing
from i18nprune.testing import FakeProvider, Fault, HardLimit, fake_translation

PROVIDERS = ["google", "google-cloud", "deepl", "libre", "azure", "llm", "mymemory"]
KEYED = ["google-cloud", "deepl", "libre", "azure", "llm", "mymemory"]
TEXTS = ['Hello <x id="0"/> & <b>{name}</b>', 'Bye <x id="0"/><x id="1"/>']


def texts_for(provider_id: str) -> list[str]:
    """MyMemory takes one text per request."""
    return TEXTS[:1] if provider_id == "mymemory" else TEXTS


def send(
    client: httpx.Client,
    provider_id: str,
    texts: list[str],
    *,
    key: str | None = None,
    source: str = "en",
    target: str = "fr",
) -> httpx.Response:
    """One request in the provider's wire format, as contracts §2 describes it."""
    body: dict[str, Any]
    match provider_id:
        case "google":
            params = {"client": "gtx", "sl": source, "tl": target, "format": "html"}
            return client.post("/translate_a/t", params=params, data={"q": texts})
        case "google-cloud":
            body = {"q": texts, "source": source, "target": target, "format": "html"}
            params = {"key": key} if key else {}
            return client.post("/language/translate/v2", params=params, json=body)
        case "deepl":
            headers = {"Authorization": f"DeepL-Auth-Key {key}"} if key else {}
            body = {
                "text": texts,
                "source_lang": source.upper(),
                "target_lang": target.upper(),
                "tag_handling": "xml",
                "ignore_tags": ["x"],
            }
            return client.post("/v2/translate", headers=headers, json=body)
        case "libre":
            body = {"q": texts, "source": source, "target": target, "format": "html"}
            return client.post("/translate", json=body | ({"api_key": key} if key else {}))
        case "azure":
            params = {"api-version": "3.0", "from": source, "to": target, "textType": "html"}
            headers = {"Ocp-Apim-Subscription-Key": key} if key else {}
            items = [{"Text": text} for text in texts]
            return client.post("/translate", params=params, headers=headers, json=items)
        case "llm":
            headers = {"Authorization": f"Bearer {key}"} if key else {}
            task = json.dumps({"source": source, "target": target, "texts": texts})
            messages = [
                {"role": "system", "content": "Translate; keep tokens."},
                {"role": "user", "content": task},
            ]
            body = {"model": "gpt-4o-mini", "temperature": 0, "messages": messages}
            return client.post("/chat/completions", headers=headers, json=body)
        case "mymemory":
            params = {"q": texts[0], "langpair": f"{source}|{target}"}
            return client.get("/get", params=params | ({"key": key} if key else {}))
    raise AssertionError(provider_id)


def translations_in(provider_id: str, response: httpx.Response) -> list[Any]:
    """The translations of a success answer, read the way the real API is read."""
    body = response.json()
    match provider_id:
        case "google":
            return [body] if isinstance(body, str) else body
        case "google-cloud":
            return [item["translatedText"] for item in body["data"]["translations"]]
        case "deepl":
            return [item["text"] for item in body["translations"]]
        case "libre":
            return body["translatedText"]
        case "azure":
            return [item["translations"][0]["text"] for item in body]
        case "llm":
            return json.loads(body["choices"][0]["message"]["content"])["translations"]
        case "mymemory":
            return [body["responseData"]["translatedText"]]
    raise AssertionError(provider_id)


def test_public_surface_offers_the_fakes() -> None:
    names = {"FakeProvider", "FakeStats", "Fault", "HardLimit", "RecordedRequest"}
    names.add("fake_translation")
    assert names <= set(i18nprune.testing.__all__)
    assert all(hasattr(i18nprune.testing, name) for name in i18nprune.testing.__all__)


def test_fake_translation_prefixes_the_upper_cased_target() -> None:
    assert fake_translation('Hi <x id="0"/> &amp;', "pt-BR") == 'PT-BR:Hi <x id="0"/> &amp;'


@pytest.mark.parametrize("provider_id", PROVIDERS)
def test_each_wire_format_answers_fake_translations(provider_id: str) -> None:
    texts = texts_for(provider_id)
    with FakeProvider(provider_id) as fake, httpx.Client(base_url=fake.base_url) as client:
        response = send(client, provider_id, texts)

    assert response.status_code == 200
    assert translations_in(provider_id, response) == [fake_translation(t, "fr") for t in texts]
    [record] = fake.requests
    assert (record.texts, record.status, record.error) == (texts, 200, None)
    assert record.target is not None
    assert record.target.lower() == "fr"


def test_google_answers_a_single_text_with_a_bare_string() -> None:
    with FakeProvider("google") as fake, httpx.Client(base_url=fake.base_url) as client:
        response = send(client, "google", ["One"])

    assert response.json() == "FR:One"


def test_libre_answers_a_bare_string_q_with_a_bare_string() -> None:
    with FakeProvider("libre") as fake, httpx.Client(base_url=fake.base_url) as client:
        response = client.post("/translate", json={"q": "One", "source": "en", "target": "de"})

    assert response.json() == {"translatedText": "DE:One"}


@pytest.mark.parametrize(
    ("provider_id", "method", "path", "body"),
    [
        ("google", "POST", "/translate_a/t?client=gtx&sl=en&tl=fr", {"data": {"x": "1"}}),
        ("google-cloud", "POST", "/language/translate/v2", {"json": {"q": ["a"]}}),
        ("deepl", "POST", "/v2/translate", {"json": {"text": "a", "target_lang": "FR"}}),
        ("deepl", "POST", "/v2/translate", {"data": {"text": "a", "target_lang": "FR"}}),
        ("libre", "POST", "/translate", {"json": {"q": [1], "source": "en", "target": "fr"}}),
        ("azure", "POST", "/translate?api-version=3.0&to=fr", {"json": [{"text": "a"}]}),
        ("llm", "POST", "/chat/completions", {"json": {"model": "m", "messages": []}}),
        ("mymemory", "GET", "/get?q=a&langpair=en", {}),
    ],
)
def test_request_of_the_wrong_shape_is_refused_with_400_and_recorded(
    provider_id: str, method: str, path: str, body: dict[str, Any]
) -> None:
    with FakeProvider(provider_id) as fake, httpx.Client(base_url=fake.base_url) as client:
        response = client.request(method, path, **body)

    assert response.status_code == 400
    [record] = fake.requests
    assert (record.status, record.texts) == (400, [])
    assert record.error


def test_llm_task_that_is_not_json_is_refused_with_400() -> None:
    body = {"model": "m", "messages": [{"role": "user", "content": "translate hello"}]}
    with FakeProvider("llm") as fake, httpx.Client(base_url=fake.base_url) as client:
        response = client.post("/chat/completions", json=body)

    assert response.status_code == 400
    assert "invalid request body" in response.json()["error"]["message"]


def test_unknown_route_is_404_and_recorded() -> None:
    with FakeProvider("deepl") as fake, httpx.Client(base_url=fake.base_url) as client:
        response = client.post("/v1/translate", json={"text": ["a"], "target_lang": "FR"})

    assert response.status_code == 404
    assert fake.requests[0].error == "no route for POST /v1/translate"


@pytest.mark.parametrize(
    ("provider_id", "status"),
    [
        ("google-cloud", 403),
        ("deepl", 403),
        ("libre", 403),
        ("azure", 401),
        ("llm", 401),
        ("mymemory", 403),
    ],
)
def test_wrong_api_key_gets_the_provider_auth_error(provider_id: str, status: int) -> None:
    with (
        FakeProvider(provider_id, api_key="right-key") as fake,
        httpx.Client(base_url=fake.base_url) as client,
    ):
        wrong = send(client, provider_id, texts_for(provider_id), key="wrong-key")
        missing = send(client, provider_id, texts_for(provider_id))

    assert (wrong.status_code, missing.status_code) == (status, status)
    assert "right-key" not in wrong.text
    assert [record.error for record in fake.requests] == ["missing or wrong API key"] * 2


@pytest.mark.parametrize("provider_id", KEYED)
def test_right_api_key_is_accepted(provider_id: str) -> None:
    with (
        FakeProvider(provider_id, api_key="right-key") as fake,
        httpx.Client(base_url=fake.base_url) as client,
    ):
        response = send(client, provider_id, texts_for(provider_id), key="right-key")

    assert response.status_code == 200


def test_google_public_fake_refuses_an_api_key() -> None:
    with pytest.raises(ValueError, match="takes no API key"):
        FakeProvider("google", api_key="k")


def test_unknown_provider_has_no_fake() -> None:
    with pytest.raises(ValueError, match="no fake for provider 'pseudo'"):
        FakeProvider("pseudo")


def test_fault_with_zero_times_is_refused() -> None:
    with pytest.raises(ValueError, match="times"):
        Fault(kind="quota", times=0)


@pytest.mark.parametrize(("provider_id", "status"), [("deepl", 413), ("libre", 400)])
def test_more_texts_than_the_batch_limit_get_the_too_many_error(
    provider_id: str, status: int
) -> None:
    with (
        FakeProvider(provider_id, batch_limit=2) as fake,
        httpx.Client(base_url=fake.base_url) as client,
    ):
        over = send(client, provider_id, ["a", "b", "c"])
        at_limit = send(client, provider_id, ["a", "b"])

    assert (over.status_code, at_limit.status_code) == (status, 200)
    assert fake.requests[0].error == "too many texts: 3 > 2"


def test_rate_limit_fault_sends_retry_after() -> None:
    fault = Fault(kind="rate_limit", retry_after=0.25)
    with (
        FakeProvider("deepl", faults=[fault]) as fake,
        httpx.Client(base_url=fake.base_url) as client,
    ):
        response = send(client, "deepl", TEXTS)

    assert response.status_code == 429
    assert response.headers["retry-after"] == "0.25"
    assert fake.requests[0].fault == "rate_limit"


def test_rate_limit_fault_sends_whole_seconds_as_an_integer() -> None:
    with (
        FakeProvider("libre", faults=[Fault(kind="rate_limit", retry_after=7)]) as fake,
        httpx.Client(base_url=fake.base_url) as client,
    ):
        response = send(client, "libre", TEXTS)

    assert response.headers["retry-after"] == "7"


def test_rate_limit_fault_without_retry_after_sends_no_header() -> None:
    with (
        FakeProvider("azure", faults=[Fault(kind="rate_limit")]) as fake,
        httpx.Client(base_url=fake.base_url) as client,
    ):
        response = send(client, "azure", TEXTS)

    assert response.status_code == 429
    assert "retry-after" not in response.headers
    assert response.json()["error"]["code"] == 429001


def test_server_error_fault_status_can_be_overridden() -> None:
    faults = [Fault(kind="server_error"), Fault(kind="server_error", status=503)]
    with (
        FakeProvider("libre", faults=faults) as fake,
        httpx.Client(base_url=fake.base_url) as client,
    ):
        statuses = [send(client, "libre", TEXTS).status_code for _ in range(2)]

    assert statuses == [500, 503]


@pytest.mark.parametrize(
    ("provider_id", "status", "shows_quota"),
    [
        ("deepl", 456, lambda r: r.json()["message"] == "quota exceeded"),
        (
            "google-cloud",
            403,
            lambda r: r.json()["error"]["errors"][0]["reason"] == "dailyLimitExceeded",
        ),
        ("azure", 403, lambda r: r.json()["error"]["code"] == 403001),
        (
            "mymemory",
            200,
            lambda r: r.json()["quotaFinished"] and r.json()["responseStatus"] == 429,
        ),
        ("llm", 429, lambda r: r.json()["error"]["code"] == "insufficient_quota"),
        ("libre", 429, lambda r: "quota" in r.json()["error"]),
        ("google", 429, lambda r: "quota" in r.text),
    ],
)
def test_quota_fault_speaks_the_provider_quota_answer(
    provider_id: str, status: int, shows_quota: Callable[[httpx.Response], bool]
) -> None:
    with (
        FakeProvider(provider_id, faults=[Fault(kind="quota")]) as fake,
        httpx.Client(base_url=fake.base_url) as client,
    ):
        response = send(client, provider_id, texts_for(provider_id))

    assert response.status_code == status
    assert shows_quota(response)


def test_auth_fault_answers_the_auth_error() -> None:
    with (
        FakeProvider("llm", faults=[Fault(kind="auth")]) as fake,
        httpx.Client(base_url=fake.base_url) as client,
    ):
        response = send(client, "llm", TEXTS)

    assert response.status_code == 401
    assert response.json()["error"]["code"] == "invalid_api_key"


def test_fault_applies_to_the_next_times_requests_only() -> None:
    with (
        FakeProvider("deepl", faults=[Fault(kind="server_error", times=2)]) as fake,
        httpx.Client(base_url=fake.base_url) as client,
    ):
        statuses = [send(client, "deepl", TEXTS).status_code for _ in range(3)]

    assert statuses == [500, 500, 200]
    assert [record.fault for record in fake.requests] == ["server_error", "server_error", None]


def test_fault_for_ever_applies_to_every_request() -> None:
    with (
        FakeProvider("deepl", faults=[Fault(kind="quota", times=-1)]) as fake,
        httpx.Client(base_url=fake.base_url) as client,
    ):
        statuses = [send(client, "deepl", TEXTS).status_code for _ in range(3)]

    assert statuses == [456, 456, 456]


def test_faults_apply_in_the_order_they_were_added() -> None:
    with FakeProvider("deepl") as fake, httpx.Client(base_url=fake.base_url) as client:
        fake.add_fault(Fault(kind="rate_limit"))
        fake.add_fault(Fault(kind="quota"))
        statuses = [send(client, "deepl", TEXTS).status_code for _ in range(3)]

    assert statuses == [429, 456, 200]


def test_refused_requests_do_not_use_up_faults() -> None:
    with (
        FakeProvider("deepl", api_key="k", faults=[Fault(kind="quota")]) as fake,
        httpx.Client(base_url=fake.base_url) as client,
    ):
        refused = send(client, "deepl", TEXTS, key="wrong")
        faulted = send(client, "deepl", TEXTS, key="k")

    assert (refused.status_code, faulted.status_code) == (403, 456)


def test_reset_fault_closes_the_connection_without_an_answer() -> None:
    with (
        FakeProvider("libre", faults=[Fault(kind="reset")]) as fake,
        httpx.Client(base_url=fake.base_url) as client,
    ):
        with pytest.raises(httpx.TransportError):
            send(client, "libre", TEXTS)
        after = send(client, "libre", TEXTS)

    assert after.status_code == 200
    assert (fake.requests[0].fault, fake.requests[0].status) == ("reset", None)


def test_malformed_fault_answers_200_that_is_not_json() -> None:
    with (
        FakeProvider("google-cloud", faults=[Fault(kind="malformed")]) as fake,
        httpx.Client(base_url=fake.base_url) as client,
    ):
        response = send(client, "google-cloud", TEXTS)

    assert response.status_code == 200
    with pytest.raises(json.JSONDecodeError):
        response.json()


def test_llm_malformed_fault_answers_content_that_is_not_json() -> None:
    with (
        FakeProvider("llm", faults=[Fault(kind="malformed")]) as fake,
        httpx.Client(base_url=fake.base_url) as client,
    ):
        response = send(client, "llm", TEXTS)

    content = response.json()["choices"][0]["message"]["content"]
    with pytest.raises(json.JSONDecodeError):
        json.loads(content)


@pytest.mark.parametrize("provider_id", [p for p in PROVIDERS if p != "mymemory"])
def test_wrong_count_fault_answers_one_translation_fewer(provider_id: str) -> None:
    with (
        FakeProvider(provider_id, faults=[Fault(kind="wrong_count")]) as fake,
        httpx.Client(base_url=fake.base_url) as client,
    ):
        response = send(client, provider_id, TEXTS)

    assert translations_in(provider_id, response) == [fake_translation(TEXTS[0], "fr")]


def test_mymemory_wrong_count_fault_answers_no_translation() -> None:
    with (
        FakeProvider("mymemory", faults=[Fault(kind="wrong_count")]) as fake,
        httpx.Client(base_url=fake.base_url) as client,
    ):
        response = send(client, "mymemory", TEXTS[:1])

    assert translations_in("mymemory", response) == [None]


def test_drop_placeholder_fault_removes_the_first_token_of_each_text() -> None:
    with (
        FakeProvider("azure", faults=[Fault(kind="drop_placeholder")]) as fake,
        httpx.Client(base_url=fake.base_url) as client,
    ):
        response = send(client, "azure", TEXTS)

    assert translations_in("azure", response) == [
        "FR:Hello  & <b>{name}</b>",
        'FR:Bye <x id="1"/>',
    ]


def test_rename_placeholder_fault_renumbers_the_first_token_of_each_text() -> None:
    with (
        FakeProvider("deepl", faults=[Fault(kind="rename_placeholder")]) as fake,
        httpx.Client(base_url=fake.base_url) as client,
    ):
        response = send(client, "deepl", TEXTS)

    assert translations_in("deepl", response) == [
        'FR:Hello <x id="100"/> & <b>{name}</b>',
        'FR:Bye <x id="100"/><x id="1"/>',
    ]


def test_hang_fault_answers_nothing_until_the_client_gives_up() -> None:
    with (
        FakeProvider("libre", faults=[Fault(kind="hang")]) as fake,
        httpx.Client(base_url=fake.base_url, timeout=0.1) as client,
    ):
        with pytest.raises(httpx.ReadTimeout):
            send(client, "libre", TEXTS)
        fake.wait_for_requests(1)
        deadline = time.monotonic() + 2
        while fake.stats().in_flight and time.monotonic() < deadline:
            time.sleep(0.005)

    [record] = fake.requests
    assert (record.fault, record.status, record.aborted) == ("hang", None, True)


def test_stats_count_a_hanging_request_as_in_flight() -> None:
    with FakeProvider("libre", faults=[Fault(kind="hang")]) as fake:
        caller = Caller(fake, "libre")
        assert fake.wait_for_requests(1)
        stats = fake.stats()
        in_flight_record = fake.requests[0]
    caller.join()

    assert (stats.in_flight, stats.requests) == (1, 1)
    assert (in_flight_record.finished, in_flight_record.status) == (None, None)
    assert isinstance(caller.failure, httpx.TransportError)


class Caller(threading.Thread):
    """Sends one request from a thread and keeps the exception it ends with."""

    def __init__(self, fake: FakeProvider, provider_id: str) -> None:
        super().__init__()
        self.client = httpx.Client(base_url=fake.base_url, timeout=10)
        self.provider_id = provider_id
        self.failure: Exception | None = None
        self.start()

    def run(self) -> None:
        with self.client:
            try:
                send(self.client, self.provider_id, TEXTS)
            except httpx.TransportError as failure:
                self.failure = failure


def test_stats_record_batch_sizes_and_texts() -> None:
    with FakeProvider("deepl") as fake, httpx.Client(base_url=fake.base_url) as client:
        for size in (3, 1, 2):
            send(client, "deepl", [f"t{i}" for i in range(size)])

    stats = fake.stats()
    assert (stats.requests, stats.texts, stats.batch_sizes) == (3, 6, [3, 1, 2])
    assert (stats.max_concurrency, stats.aborted, stats.in_flight) == (1, 0, 0)


def test_max_concurrency_counts_requests_in_flight_together() -> None:
    # `gather` holds the answers until all five are in flight: with a latency alone, a loaded
    # runner answered some before the rest arrived (CI once saw 3 of 5 together).
    async def fire(base_url: str) -> None:
        async with httpx.AsyncClient(base_url=base_url) as client, trio.open_nursery() as nursery:
            for index in range(5):
                body = {"q": [f"t{index}"], "source": "en", "target": "fr"}
                nursery.start_soon(partial(client.post, "/translate", json=body))

    with FakeProvider("libre", gather=5) as fake:
        trio.run(fire, fake.base_url)

    stats = fake.stats()
    assert (stats.max_concurrency, stats.requests, stats.in_flight) == (5, 5, 0)
    assert all(record.status == 200 for record in fake.requests)


def test_gather_holds_the_first_answer_until_the_second_request_arrives() -> None:
    with FakeProvider("libre", gather=2) as fake, httpx.Client(base_url=fake.base_url) as c1:
        first = threading.Thread(target=send, args=(c1, "libre", ["a"]))
        first.start()
        assert fake.wait_for_requests(1)
        with httpx.Client(base_url=fake.base_url) as c2:
            send(c2, "libre", ["b"])
            first.join()
            send(c2, "libre", ["c"])  # once gathered, never again: alone, it is answered
        held, second, alone = fake.requests

    assert held.finished is not None and held.finished >= second.started
    assert [record.status for record in (held, second, alone)] == [200, 200, 200]
    assert fake.stats().max_concurrency == 2


def test_gather_below_two_is_refused() -> None:
    with pytest.raises(ValueError, match="gather must be 2 or more"):
        FakeProvider("libre", gather=1)


def test_request_cancelled_mid_latency_is_recorded_as_aborted() -> None:
    async def cancel_midway(fake: FakeProvider) -> None:
        body = {"q": ["a"], "source": "en", "target": "fr"}
        async with httpx.AsyncClient(base_url=fake.base_url) as client, trio.open_nursery() as n:
            n.start_soon(partial(client.post, "/translate", json=body))
            # Cancel only once the fake holds the request, however slow the machine is.
            assert await trio.to_thread.run_sync(fake.wait_for_requests, 1, 30)
            n.cancel_scope.cancel()

    # The latency is far longer than any wait here: only an abort can end the request.
    with FakeProvider("libre", latency=600) as fake:
        trio.run(cancel_midway, fake)
        deadline = time.monotonic() + 30
        while not fake.stats().aborted and time.monotonic() < deadline:
            time.sleep(0.002)

    [record] = fake.requests
    assert (record.aborted, record.status) == (True, None)
    assert record.finished is not None


def test_exit_does_not_wait_for_a_request_that_hangs() -> None:
    # A hung request never answers: leaving the block at all shows exit does not wait for it.
    with FakeProvider("deepl", faults=[Fault(kind="hang")]) as fake:
        caller = Caller(fake, "deepl")
        assert fake.wait_for_requests(1)
    caller.join(30)

    assert not caller.is_alive()
    assert isinstance(caller.failure, httpx.TransportError)
    assert fake.requests[0].aborted is False


def test_two_fakes_at_once_get_different_ports() -> None:
    with FakeProvider("deepl") as first, FakeProvider("deepl") as second:
        assert first.base_url != second.base_url
        with httpx.Client() as client:
            responses = [
                client.post(
                    f"{fake.base_url}/v2/translate", json={"text": ["a"], "target_lang": "FR"}
                )
                for fake in (first, second)
            ]

    assert [response.status_code for response in responses] == [200, 200]
    assert (len(first.requests), len(second.requests)) == (1, 1)


def test_connection_is_kept_alive_between_requests() -> None:
    body = json.dumps({"text": ["a"], "target_lang": "FR"})
    headers = {"Content-Type": "application/json"}
    with FakeProvider("deepl") as fake:
        connection = http.client.HTTPConnection("127.0.0.1", int(fake.base_url.rsplit(":")[-1]))
        sockets = []
        for _ in range(3):
            connection.request("POST", "/v2/translate", body=body, headers=headers)
            assert connection.getresponse().read()
            sockets.append(connection.sock)
        connection.close()

    assert sockets[0] is not None
    assert sockets == [sockets[0]] * 3


def test_fake_stops_by_itself_after_max_lifetime() -> None:
    def refused(url: str) -> bool:
        try:
            httpx.post(url, json={"text": ["a"]})
        except httpx.ConnectError:
            return True
        except httpx.TransportError:  # accepted, then reset while the fake was stopping
            return False
        return False

    with FakeProvider("deepl", max_lifetime=0.05) as fake:
        url = f"{fake.base_url}/v2/translate"
        deadline = time.monotonic() + 30  # a bound for a loaded machine, not a speed claim
        while not refused(url) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert refused(url)


def test_wait_for_requests_is_false_when_time_runs_out() -> None:
    with FakeProvider("deepl") as fake:
        assert fake.wait_for_requests(1, timeout=0.01) is False


def test_hard_limit_refuses_requests_past_its_count_in_the_window_at_once() -> None:
    # 0.01 rps over 300 s: three requests in the window, however slow the machine is.
    limit = HardLimit(rps=0.01, window=300, retry_after=0.25)
    with (
        FakeProvider("libre", limit=limit) as fake,
        httpx.Client(base_url=fake.base_url) as client,
    ):
        statuses = [send(client, "libre", TEXTS).status_code for _ in range(5)]
        refused = send(client, "libre", TEXTS)

    assert statuses == [200, 200, 200, 429, 429]
    assert refused.headers["retry-after"] == "0.25"
    assert [record.limited for record in fake.requests] == [None] * 3 + ["rps"] * 3
    assert fake.stats().limited == 3


def test_hard_limit_admits_again_once_the_window_has_slid_past() -> None:
    with (
        FakeProvider("libre", limit=HardLimit(rps=5, window=0.2)) as fake,
        httpx.Client(base_url=fake.base_url) as client,
    ):
        first = send(client, "libre", TEXTS)
        time.sleep(0.25)  # past the window: the first request no longer counts
        second = send(client, "libre", TEXTS)

    assert (first.status_code, second.status_code) == (200, 200)
    assert fake.stats().limited == 0


def test_hard_limit_on_concurrency_counts_admitted_requests_until_they_depart() -> None:
    # Two admitted requests hang (the faults apply after the limit); the third is refused at
    # once, without using up a fault; once the two are gone a fourth is admitted again.
    limit = HardLimit(concurrency=2, retry_after=None)
    body = json.dumps({"text": TEXTS, "target_lang": "FR"})
    headers = {"Content-Type": "application/json"}
    with FakeProvider("deepl", limit=limit, faults=[Fault(kind="hang", times=2)]) as fake:
        port = int(fake.base_url.rsplit(":")[-1])
        hanging = [http.client.HTTPConnection("127.0.0.1", port) for _ in range(2)]
        for connection in hanging:
            connection.request("POST", "/v2/translate", body=body, headers=headers)
        assert fake.wait_for_requests(2, timeout=30)
        with httpx.Client(base_url=fake.base_url) as client:
            refused = send(client, "deepl", TEXTS)
            for connection in hanging:
                connection.close()
            deadline = time.monotonic() + 30  # a bound for a loaded machine, not a speed claim
            while fake.stats().in_flight and time.monotonic() < deadline:
                time.sleep(0.01)
            admitted = send(client, "deepl", TEXTS)

    assert (refused.status_code, admitted.status_code) == (429, 200)
    assert "retry-after" not in refused.headers
    assert [record.limited for record in fake.requests[2:]] == ["concurrency", None]
    assert fake.requests[2].fault is None
    assert [record.aborted for record in fake.requests[:2]] == [True, True]


def test_hard_limit_must_be_positive() -> None:
    with pytest.raises(ValueError, match=r"HardLimit\.rps must be positive"):
        HardLimit(rps=0)
