"""`generate` as members of a fleet (docs/fleet.md): real CLI processes, each with its own copy
of the project and its own data home, one real Redis, one loopback fake provider. What the
fake received is the evidence: no text is sent twice, shards send disjoint shares and write
nothing, and a lost or unreachable server stops a run without losing what arrived."""

from __future__ import annotations

import json
import os
import signal
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from i18nprune.fleet.connection import connect
from i18nprune.testing import FakeProvider, Fault, HardLimit
from i18nprune.testing.redis_server import RedisServer
from tests.conftest import CLI_TIMEOUT, CliResult, cli_environment, worker_zygote, write_tree
from tests.fleet.conftest import require_redis
from tests.generate.conftest import code_using, provider_config, start_cli, wait_until
from tests.zygote import run_fresh

pytestmark = pytest.mark.slow

EN = {f"k{index}": f"Message number {index} of the app" for index in range(24)}
TARGETS = ("fr", "de")
EXPECTED_TEXTS = len(EN) * len(TARGETS)


class Member:
    """One member of the fleet: a copy of the project and a data home of its own."""

    def __init__(self, base: Path, name: str, fake: FakeProvider, **row: Any) -> None:
        config = provider_config(fake, batchSize=4, **row)
        self.root = write_tree(
            base / name / "app",
            {
                "i18nprune.config.json": config,
                "src/app.ts": code_using(*EN),
                "locales/en.json": EN,
                **{f"locales/{target}.json": {} for target in TARGETS},
            },
        )
        self.home = base / name / "home"

    def start(self, *args: str, url: str | None, env: dict[str, str] | None = None) -> Any:
        return start_cli(*_generate(args), cwd=self.root, home=self.home, env=_extra(url, env))

    def run(self, *args: str, url: str | None, env: dict[str, str] | None = None) -> CliResult:
        """The member's `generate`, run to its end: forked from the test worker's fork server
        as `run_cli` runs the CLI (a fresh interpreter when it cannot be)."""
        argv = _generate(args)
        environ = cli_environment(self.home, **_extra(url, env))
        zygote = worker_zygote()
        if zygote is not None and zygote.serves(argv, self.root, environ):
            return CliResult(*zygote.run(argv, self.root, environ, CLI_TIMEOUT))
        return CliResult(*run_fresh(argv, self.root, environ, CLI_TIMEOUT))

    def locale_files(self) -> dict[str, bytes]:
        folder = self.root / "locales"
        return {path.name: path.read_bytes() for path in sorted(folder.iterdir())}


def _generate(args: tuple[str, ...]) -> tuple[str, ...]:
    """A member's command line: `generate` of every target, with `args`."""
    return ("generate", "--target", ",".join(TARGETS), "--json", *args)


def _extra(url: str | None, env: dict[str, str] | None) -> dict[str, str]:
    """A member's environment beside its home: `env`, and the shared memory at `url`."""
    extra = dict(env or {})
    if url is not None:
        extra["I18NPRUNE_CACHE_URL"] = url
    return extra


def sent(fake: FakeProvider, since: int = 0) -> Counter[tuple[str | None, str]]:
    """(target, text) of every text the fake answered, from its `since`-th request."""
    return Counter(
        (request.target, text)
        for request in fake.requests[since:]
        if request.status == 200
        for text in request.texts
    )


def test_a_second_member_sends_nothing_and_writes_the_same_files(
    tmp_path: Path, redis_server: RedisServer
) -> None:
    with FakeProvider("libre") as fake:
        first, second = (Member(tmp_path, name, fake) for name in ("a", "b"))
        done = first.run(url=redis_server.url)
        assert done.code == 0, done.stdout + done.stderr
        assert sum(sent(fake).values()) == EXPECTED_TEXTS
        requests = len(fake.requests)
        again = second.run(url=redis_server.url)
        assert again.code == 0, again.stdout + again.stderr
        assert len(fake.requests) == requests  # every text came from the shared memory
    assert second.locale_files() == first.locale_files()
    fleet = again.envelope["data"]["fleet"]
    assert fleet["memory"] == redis_server.url and fleet["shard"] is None
    assert fleet["sharedHits"] == EXPECTED_TEXTS and fleet["sent"] == 0
    assert all(r["cachedLeafCount"] == len(EN) for r in again.envelope["data"]["targetResults"])


def test_members_started_at_the_same_moment_send_each_text_once(
    tmp_path: Path, redis_server: RedisServer
) -> None:
    with FakeProvider("libre", latency=0.05) as fake:
        members = [Member(tmp_path, name, fake) for name in ("a", "b", "c")]
        processes = [member.start(url=redis_server.url) for member in members]
        outputs = [process.communicate(timeout=120) for process in processes]
        assert [process.returncode for process in processes] == [0, 0, 0], outputs
        counts = sent(fake)
    assert len(counts) == EXPECTED_TEXTS and set(counts.values()) == {1}
    files = [member.locale_files() for member in members]
    assert files[0] == files[1] == files[2]
    reports = [json.loads(stdout)["data"]["fleet"] for stdout, _ in outputs]
    assert sum(report["sent"] for report in reports) == EXPECTED_TEXTS


def test_shards_send_disjoint_shares_write_nothing_and_a_final_run_sends_nothing(
    tmp_path: Path, redis_server: RedisServer
) -> None:
    with FakeProvider("libre") as fake:
        members = [Member(tmp_path, f"shard{index}", fake) for index in (1, 2, 3)]
        before = [member.locale_files() for member in members]
        shares: list[set[tuple[str | None, str]]] = []
        for index, member in enumerate(members, start=1):
            since = len(fake.requests)
            done = member.run("--shard", f"{index}/3", url=redis_server.url)
            assert done.code == 0, done.stdout + done.stderr
            data = done.envelope["data"]
            assert data["fleet"]["shard"] == f"{index}/3"
            assert {r["status"] for r in data["targetResults"]} == {"sharded"}
            assert data["lockFile"] is None
            shares.append(set(sent(fake, since)))
        assert [member.locale_files() for member in members] == before
        assert not any((member.root / "i18nprune.lock.json").exists() for member in members)
        assert all(shares) and sum(map(len, shares)) == len(set().union(*shares))
        assert len(set().union(*shares)) == EXPECTED_TEXTS
        requests = len(fake.requests)
        final = Member(tmp_path, "final", fake)
        done = final.run(url=redis_server.url)
        assert done.code == 0, done.stdout + done.stderr
        assert len(fake.requests) == requests
        alone = Member(tmp_path, "alone", fake)
        assert alone.run(url=None).code == 0
    assert final.locale_files() == alone.locale_files()
    assert (final.root / "i18nprune.lock.json").exists()


def test_an_indexed_jobs_variables_choose_the_shard(
    tmp_path: Path, redis_server: RedisServer
) -> None:
    with FakeProvider("libre") as fake:
        member = Member(tmp_path, "a", fake)
        env = {"JOB_COMPLETION_INDEX": "1", "JOB_COMPLETION_COUNT": "2"}
        done = member.run(url=redis_server.url, env=env)
        assert done.code == 0, done.stdout + done.stderr
        assert done.envelope["data"]["fleet"]["shard"] == "2/2"
        assert 0 < sum(sent(fake).values()) < EXPECTED_TEXTS
        flag = member.run("--shard", "1/2", url=redis_server.url, env=env)
        assert flag.envelope["data"]["fleet"]["shard"] == "1/2"  # the flag wins
        assert sum(sent(fake).values()) == EXPECTED_TEXTS


@pytest.mark.parametrize(
    ("args", "url", "message"),
    [
        (["--shard", "0/3"], "redis", "K must be between 1 and N"),
        (["--shard", "4/3"], "redis", "K must be between 1 and N"),
        (["--shard", "2"], "redis", "is not K/N"),
        (["--shard", "1/2"], None, "needs a shared translation memory"),
        (["--shard", "1/2", "--no-cache"], "redis", "caching is off"),
    ],
)
def test_a_shard_that_cannot_work_is_refused_before_anything_is_sent(
    tmp_path: Path, redis_server: RedisServer, args: list[str], url: str | None, message: str
) -> None:
    with FakeProvider("libre") as fake:
        member = Member(tmp_path, "a", fake)
        before = member.locale_files()
        done = member.run(*args, url=redis_server.url if url else None)
        assert not fake.requests
    assert done.code == 1
    [issue] = [i for i in done.envelope["issues"] if i["severity"] == "error"]
    assert issue["code"] == "i18nprune.generate.shard_invalid" and message in issue["message"]
    assert member.locale_files() == before


def test_an_unreachable_memory_stops_the_run_naming_it_without_its_password(
    tmp_path: Path,
) -> None:
    require_redis()
    with RedisServer(password="pa55word") as server:
        url = server.url
    with FakeProvider("libre") as fake:
        member = Member(tmp_path, "a", fake)
        before = member.locale_files()
        for output in ("--json", "--format=text"):
            process = start_cli(
                "generate", "--target", "fr", output, "--cache-url", url,
                cwd=member.root, home=member.home,
            )  # fmt: skip
            stdout, stderr = process.communicate(timeout=120)
            assert process.returncode == 1, stdout + stderr
            assert "pa55word" not in stdout + stderr
            assert f"127.0.0.1:{server.port}" in stdout + stderr
            assert "cannot be reached" in stdout + stderr
        assert not fake.requests
    assert member.locale_files() == before
    assert not (member.root / "i18nprune.lock.json").exists()


def test_config_shows_the_shared_memory_without_its_password(
    tmp_path: Path, redis_server: RedisServer
) -> None:
    with FakeProvider("libre") as fake:
        member = Member(tmp_path, "a", fake)
        process = start_cli(
            "config", "--json", cwd=member.root, home=member.home,
            env={"I18NPRUNE_CACHE_URL": "redis://user:s3cret@cache.internal:6379/2"},
        )  # fmt: skip
        stdout, stderr = process.communicate(timeout=60)
    assert process.returncode == 0, stderr
    assert "s3cret" not in stdout + stderr
    assert "redis://***@cache.internal:6379/2" in stdout


def test_a_memory_lost_mid_run_stops_it_and_a_rerun_sends_only_the_rest(
    tmp_path: Path, redis_server: RedisServer
) -> None:
    with FakeProvider("libre", latency=0.1) as fake:
        member = Member(tmp_path, "a", fake, rateLimit={"maxConcurrency": 1})
        before = member.locale_files()
        process = member.start(url=redis_server.url)
        assert wait_until(lambda: len(sent(fake)) >= 8, timeout=60), process.communicate()
        redis_server.kill()
        stdout, stderr = process.communicate(timeout=120)
        assert process.returncode == 1, stdout + stderr
        [issue] = [i for i in json.loads(stdout)["issues"] if i["severity"] == "error"]
        assert issue["code"] == "i18nprune.translate.shared_memory_unavailable"
        assert "was lost during the run" in issue["message"]
        assert member.locale_files() == before  # nothing written
        arrived = set(sent(fake))
        since = len(fake.requests)
        redis_server.start()  # back, and empty: what arrived is in the local cache
        done = member.run(url=redis_server.url)
        assert done.code == 0, done.stdout + done.stderr
        rerun = sent(fake, since)
    assert not arrived & set(rerun)
    assert len(arrived) + len(rerun) == EXPECTED_TEXTS


def test_a_member_killed_mid_run_loses_nothing_it_was_answered(
    tmp_path: Path, redis_server: RedisServer
) -> None:
    answered = 3
    faults = [Fault(kind="drop_placeholder", times=answered), Fault(kind="hang", times=1)]
    with FakeProvider("libre", faults=faults) as fake:
        config = {"rateLimit": {"maxConcurrency": 1}}
        killed, other = (Member(tmp_path, name, fake, **config) for name in ("a", "b"))
        # The claims the member takes last 1 s unless renewed: those it held when it died
        # come back to the others that soon.
        config_file = killed.root / "i18nprune.config.json"
        settings = json.loads(config_file.read_text())
        settings["cache"] = {"claimSeconds": 1}
        config_file.write_text(json.dumps(settings))
        process = killed.start(url=redis_server.url)
        assert fake.wait_for_requests(answered + 1, timeout=60), process.communicate()
        # Each answer is recorded on its text's claim as it arrives, while the next request
        # may already be out: kill once the answered texts are recorded (docs/fleet.md).
        assert wait_until(lambda: recorded(redis_server) == answered * 4, timeout=30)
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate(timeout=60)
        before = set(sent(fake))
        assert len(before) == answered * 4
        since = len(fake.requests)
        done = other.run(url=redis_server.url)
        assert done.code == 0, done.stdout + done.stderr
        after = sent(fake, since)
    assert not before & set(after)
    assert len(before) + len(after) == EXPECTED_TEXTS


def recorded(server: RedisServer) -> int:
    """Texts whose translation is recorded on their claim (`claim:*` holding `d:…`)."""
    client = connect(server.url).client
    names = list(client.scan_iter("i18nprune:1:claim:*"))
    return sum(1 for value in client.mget(names) if value and value.startswith("d:"))


def test_a_full_memory_is_an_error_not_a_hang(tmp_path: Path) -> None:
    require_redis()
    with RedisServer(maxmemory=2_000_000) as server, FakeProvider("libre") as fake:
        client = connect(server.url).client
        filled = 0
        while not (error := _try_set(client, filled)):
            filled += 1
        assert "maxmemory" in error
        member = Member(tmp_path, "a", fake)
        before = member.locale_files()
        done = member.run(url=server.url)
    assert done.code == 1, done.stdout + done.stderr
    [issue] = [i for i in done.envelope["issues"] if i["severity"] == "error"]
    assert "is full" in issue["message"] and "maxmemory" in issue["message"]
    assert member.locale_files() == before


def _try_set(client: Any, index: int) -> str:
    """Fill the server with 10 KB values; the error once it refuses, else ''."""
    import redis

    try:
        client.set(f"filler:{index}", "x" * 10_000)
    except redis.RedisError as failure:
        return str(failure)
    return ""


def test_a_translation_that_failed_verification_is_asked_for_again_not_read_back(
    tmp_path: Path, redis_server: RedisServer
) -> None:
    # The first answer drops the placeholder; the text's retry alone must reach the provider,
    # not the broken translation recorded on the text's claim.
    with FakeProvider("libre", faults=[Fault(kind="drop_placeholder", times=1)]) as fake:
        root = write_tree(
            tmp_path / "app",
            {
                "i18nprune.config.json": provider_config(fake),
                "src/app.ts": code_using("hello"),
                "locales/en.json": {"hello": "Hello {{name}}"},
                "locales/fr.json": {},
            },
        )
        process = start_cli(
            "generate", "--target", "fr", "--json", "--cache-url", redis_server.url,
            cwd=root, home=tmp_path / "home",
        )  # fmt: skip
        stdout, stderr = process.communicate(timeout=120)
        assert process.returncode == 0, stdout + stderr
        assert [request.status for request in fake.requests] == [200, 200]
    assert "{{name}}" in json.loads((root / "locales/fr.json").read_text())["hello"]


def test_a_shards_text_report_says_it_wrote_nothing(
    tmp_path: Path, redis_server: RedisServer
) -> None:
    with FakeProvider("libre") as fake:
        member = Member(tmp_path, "a", fake)
        process = start_cli(
            "generate", "--all", "--shard", "1/2", "--cache-url", redis_server.url,
            cwd=member.root, home=member.home,
        )  # fmt: skip
        stdout, stderr = process.communicate(timeout=120)
        sent_texts = sum(sent(fake).values())
    assert process.returncode == 0, stdout + stderr
    assert stdout.count("sharded") == len(TARGETS)
    assert f"shared memory {redis_server.url}: shard 1/2, nothing written; " in stdout
    assert f"{sent_texts} text(s) sent" in stdout and "wrote" not in stdout


def test_shards_started_together_hold_the_providers_concurrency_for_the_fleet(
    tmp_path: Path, redis_server: RedisServer
) -> None:
    # Each member alone may have 2 requests out; the provider allows 2 for everyone together.
    limit = HardLimit(concurrency=2)
    with FakeProvider("libre", latency=0.03, limit=limit) as fake:
        members = [
            Member(tmp_path, f"m{index}", fake, rateLimit={"maxConcurrency": 2})
            for index in (1, 2, 3)
        ]
        processes = [
            member.start("--shard", f"{index}/3", url=redis_server.url)
            for index, member in enumerate(members, start=1)
        ]
        outputs = [process.communicate(timeout=120) for process in processes]
        assert [process.returncode for process in processes] == [0, 0, 0], outputs
        stats = fake.stats()
    assert stats.limited == 0 and stats.max_concurrency <= 2
    assert len(sent(fake)) == EXPECTED_TEXTS
