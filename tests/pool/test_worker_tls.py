"""A worker's TLS trust: the CA certificates are read by the first TLS connection, not at
start-up, and connections are verified against them exactly as httpx's default context would
(over real TLS to a server on 127.0.0.1 that the test starts)."""

from __future__ import annotations

import shutil
import socket
import ssl
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import trio

from i18nprune_workers.trust import DeferredTrustContext

needs_openssl = pytest.mark.skipif(
    shutil.which("openssl") is None, reason="the openssl command makes the test certificate"
)


@pytest.fixture
def certificate(tmp_path: Path) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 and its key."""
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        [
            *("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2"),
            *("-keyout", str(key), "-out", str(cert), "-subj", "/CN=127.0.0.1"),
            *("-addext", "subjectAltName=IP:127.0.0.1"),
        ],
        check=True,
        capture_output=True,
        timeout=60,
    )
    return cert, key


@pytest.fixture
def tls_server(certificate: tuple[Path, Path]) -> Iterator[str]:
    """The https:// origin of a server on 127.0.0.1 answering every request `200 ok`."""
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(*certificate)
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    stop = threading.Event()

    def serve() -> None:
        listener.settimeout(0.2)
        while not stop.is_set():
            try:
                raw, _ = listener.accept()
            except TimeoutError:
                continue
            try:
                with context.wrap_socket(raw, server_side=True) as connection:
                    connection.recv(65536)
                    connection.sendall(
                        b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok"
                    )
            except (ssl.SSLError, OSError):
                raw.close()  # the client refused the certificate

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"https://127.0.0.1:{port}"
    finally:
        stop.set()
        thread.join()
        listener.close()


def _get(url: str) -> int:
    async def main() -> int:
        async with httpx.AsyncClient(verify=DeferredTrustContext()) as client:
            return (await client.get(url)).status_code

    return trio.run(main)


def test_the_certificates_are_read_by_the_first_tls_connection_only() -> None:
    context = DeferredTrustContext()
    assert not context.trusted
    assert context.cert_store_stats()["x509_ca"] == 0
    assert context.verify_mode == ssl.CERT_REQUIRED and context.check_hostname

    context.wrap_bio(ssl.MemoryBIO(), ssl.MemoryBIO(), server_hostname="example.org")

    assert context.trusted
    assert context.cert_store_stats()["x509_ca"] > 0


def test_it_is_configured_as_httpx_s_default_context() -> None:
    deferred = DeferredTrustContext()
    deferred.trust()
    default = httpx.create_ssl_context()
    settings = (
        "options",
        "verify_flags",
        "verify_mode",
        "check_hostname",
        "minimum_version",
        "maximum_version",
        "post_handshake_auth",
        "hostname_checks_common_name",
        "security_level",
    )
    assert {name: getattr(deferred, name) for name in settings} == {
        name: getattr(default, name) for name in settings
    }
    assert deferred.get_ciphers() == default.get_ciphers()


@pytest.mark.slow
def test_it_trusts_what_httpx_s_default_context_trusts(
    monkeypatch: pytest.MonkeyPatch, certificate: tuple[Path, Path]
) -> None:
    monkeypatch.delenv("SSL_CERT_FILE", raising=False)
    monkeypatch.delenv("SSL_CERT_DIR", raising=False)
    bundled = DeferredTrustContext()
    bundled.trust()
    default = httpx.create_ssl_context()
    assert bundled.get_ca_certs() == default.get_ca_certs()

    monkeypatch.setenv("SSL_CERT_FILE", str(certificate[0]))
    chosen = DeferredTrustContext()
    chosen.trust()
    assert chosen.get_ca_certs() == httpx.create_ssl_context().get_ca_certs()
    assert len(chosen.get_ca_certs()) == 1


@pytest.mark.slow
@needs_openssl
def test_a_server_whose_certificate_is_not_trusted_is_refused(
    monkeypatch: pytest.MonkeyPatch, tls_server: str
) -> None:
    monkeypatch.delenv("SSL_CERT_FILE", raising=False)
    monkeypatch.delenv("SSL_CERT_DIR", raising=False)
    with pytest.raises(httpx.ConnectError) as refused:
        _get(tls_server)
    causes = []
    cause: BaseException | None = refused.value
    while cause is not None:
        causes.append(cause)
        cause = cause.__cause__ or cause.__context__
    assert any(isinstance(cause, ssl.SSLCertVerificationError) for cause in causes), causes


@needs_openssl
def test_a_server_whose_certificate_is_trusted_is_reached(
    monkeypatch: pytest.MonkeyPatch, tls_server: str, certificate: tuple[Path, Path]
) -> None:
    monkeypatch.setenv("SSL_CERT_FILE", str(certificate[0]))
    assert _get(tls_server) == 200
