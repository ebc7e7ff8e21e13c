"""`serve`'s `op.generate` and `doctor` as a fleet member meets them: the same engine as the
CLI, so a session with `cache_url` reads what another member translated, an unreachable memory
is an error in the envelope while the session goes on, and `doctor` says whether it answers."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from i18nprune.testing import FakeProvider, ServeClient
from i18nprune.testing.redis_server import RedisServer
from tests.conftest import cli_environment, write_tree
from tests.generate.conftest import code_using, provider_config

pytestmark = pytest.mark.slow

EN = {f"k{index}": f"Label {index}" for index in range(10)}


def project(base: Path, fake: FakeProvider) -> Path:
    return write_tree(
        base,
        {
            "i18nprune.config.json": provider_config(fake),
            "src/app.ts": code_using(*EN),
            "locales/en.json": EN,
            "locales/fr.json": {},
        },
    )


def test_a_session_generates_from_what_another_member_translated(
    tmp_path: Path, redis_server: RedisServer
) -> None:
    with FakeProvider("libre") as fake:
        first, second = project(tmp_path / "a", fake), project(tmp_path / "b", fake)
        for root, home in ((first, tmp_path / "home-a"), (second, tmp_path / "home-b")):
            with ServeClient.spawn(
                "--project", str(root), "--allow-writes", env=cli_environment(home)
            ) as client:
                client.initialize()
                result = client.op("generate", {"target": ["fr"], "cache_url": redis_server.url})
                assert result["ok"] is True, result
                fleet = result["data"]["fleet"]
                assert fleet["memory"] == redis_server.url
            if root == first:
                assert fleet["sent"] == len(EN)
                requests = len(fake.requests)
        assert len(fake.requests) == requests  # the second member sent nothing
        assert fleet["sent"] == 0 and fleet["sharedHits"] == len(EN)
    assert (second / "locales/fr.json").read_bytes() == (first / "locales/fr.json").read_bytes()


def test_an_unreachable_memory_is_an_error_in_the_envelope_and_the_session_goes_on(
    tmp_path: Path,
) -> None:
    with RedisServer(password="pw-123") as server:
        url = server.url
    with FakeProvider("libre") as fake:
        root = project(tmp_path / "a", fake)
        with ServeClient.spawn(
            "--project", str(root), "--allow-writes", env=cli_environment(tmp_path)
        ) as client:
            client.initialize()
            result = client.op("generate", {"target": ["fr"], "cache_url": url})
            assert client.ping() == {}
        assert not fake.requests
    assert result["ok"] is False
    [issue] = result["issues"]
    assert issue["code"] == "i18nprune.translate.shared_memory_unavailable"
    assert "pw-123" not in str(result) and "cannot be reached" in issue["message"]
    assert (root / "locales/fr.json").read_text().strip() == "{}"


def test_doctor_says_whether_the_shared_memory_answers(
    tmp_path: Path, redis_server: RedisServer
) -> None:
    with FakeProvider("libre") as fake:
        root = project(tmp_path / "a", fake)
    findings = {}
    for url in (redis_server.url, redis_server.url.replace(str(redis_server.port), "1")):
        done = subprocess.run(
            [sys.executable, "-m", "i18nprune", "doctor", "--json"],
            cwd=root,
            env=cli_environment(tmp_path / "home", I18NPRUNE_CACHE_URL=url),
            capture_output=True,
            text=True,
            timeout=60,
        )
        [found] = [
            f
            for f in json.loads(done.stdout)["data"]["findings"]
            if f["id"] == "paths.shared_memory"
        ]
        findings[url] = (done.returncode, found["ok"], found["detail"])
    answering, refused = findings.values()
    assert answering[:2] == (0, True) and "answers" in answering[2]
    assert refused[:2] == (1, False) and "cannot be reached" in refused[2]
