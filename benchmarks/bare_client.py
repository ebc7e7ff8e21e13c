"""The fake provider's own ceiling: how many texts per second a client that costs next to
nothing gets from it, sending batches at the pool's concurrency.

    python benchmarks/bare_client.py URL [--batches N] [--concurrency 8] [--batch 100]

Each of `--concurrency` keep-alive connections sends a LibreTranslate batch of distinct texts as
soon as its last one was answered (bytes built before the clock starts; answers read by their
Content-Length, not parsed), until `--batches` were answered. Prints one JSON line: texts,
seconds, texts per second, the request time p50, and the client's CPU seconds. The fake's
HTTP handling, its JSON work and its event loop are what this measures, so that `generate`'s
in-flight throughput can be read against what the fake can give at all (the provider limit,
batch × concurrency ÷ latency, counts none of that). Run it in its own process: a client
sharing the fake's interpreter would share its GIL.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from urllib.parse import urlsplit

TIMEOUT_SECONDS = 60.0


def _request(host: str, batch: int, size: int) -> bytes:
    texts = [f"Bare client text {batch}-{index}" for index in range(size)]
    body = json.dumps({"q": texts, "source": "en", "target": "fr", "format": "html"}).encode()
    head = (
        f"POST /translate HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    ).encode()
    return head + body


async def _answer(reader: asyncio.StreamReader) -> None:
    """Read one answer; raises unless it is a 200 with a Content-Length."""
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    if lines[0].split(" ")[1] != "200":
        raise RuntimeError(f"the fake answered {lines[0]!r}")
    length = next(
        int(line.split(":", 1)[1]) for line in lines if line.lower().startswith("content-length:")
    )
    await reader.readexactly(length)


async def measure(url: str, batches: int, concurrency: int, size: int) -> dict[str, float]:
    """Send `batches` batches of `size` texts over `concurrency` connections; the figures."""
    parts = urlsplit(url)
    host, port = parts.hostname or "127.0.0.1", parts.port or 80
    requests = [_request(f"{host}:{port}", batch, size) for batch in range(batches)]
    connections = [await asyncio.open_connection(host, port) for _ in range(concurrency)]
    pending = list(reversed(requests))
    times: list[float] = []

    async def keep_sending(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        while pending:
            request = pending.pop()
            sent = time.perf_counter()
            writer.write(request)
            await _answer(reader)
            times.append(time.perf_counter() - sent)

    cpu = time.process_time()
    started = time.perf_counter()
    await asyncio.gather(*(keep_sending(reader, writer) for reader, writer in connections))
    seconds = time.perf_counter() - started
    for _, writer in connections:
        writer.close()
    return {
        "texts": batches * size,
        "seconds": round(seconds, 4),
        "texts_per_s": round(batches * size / seconds, 1),
        "request_ms_p50": round(statistics.median(times) * 1000, 3),
        "client_cpu_s": round(time.process_time() - cpu, 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("url")
    parser.add_argument("--batches", type=int, default=200)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--batch", type=int, default=100)
    args = parser.parse_args()
    figures = asyncio.run(
        asyncio.wait_for(
            measure(args.url, args.batches, args.concurrency, args.batch), TIMEOUT_SECONDS
        )
    )
    sys.stdout.write(json.dumps(figures) + "\n")


if __name__ == "__main__":
    main()
