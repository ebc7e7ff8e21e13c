"""The worker's TLS trust: the verifying client context httpx would make by default, with its CA
certificates read when the first TLS connection starts rather than when the client is made.

Reading the ~150 certificates of a CA bundle costs ~35 ms of CPU, a seventh of a worker's
start-up, and a worker that only talks plain HTTP (a loopback server, a local gateway) never
needs them. Until they are read the context trusts nothing, so a connection can never be
verified against less than the bundle.
"""

from __future__ import annotations

import os
import ssl
import sys
import threading
from typing import Any


class DeferredTrustContext(ssl.SSLContext):
    """`ssl.create_default_context(cafile=…)` as `httpx.create_ssl_context()` makes it (the CAs
    of `SSL_CERT_FILE`, else of `SSL_CERT_DIR`, else certifi's bundle; `SSLKEYLOGFILE`
    honoured), except that the CAs are loaded by the first `wrap_bio` or `wrap_socket`: every
    TLS connection starts with one of them.

    Verification is on from the start (CERT_REQUIRED, host names checked).
    """

    def __new__(cls) -> DeferredTrustContext:
        return super().__new__(cls, ssl.PROTOCOL_TLS_CLIENT)

    def __init__(self) -> None:
        super().__init__()
        self.verify_mode = ssl.CERT_REQUIRED
        self.check_hostname = True
        if sys.version_info >= (3, 13):
            # What `ssl.create_default_context` adds from 3.13 on.
            self.verify_flags |= ssl.VERIFY_X509_PARTIAL_CHAIN | ssl.VERIFY_X509_STRICT
        keylog = os.environ.get("SSLKEYLOGFILE")
        if keylog and not sys.flags.ignore_environment:
            self.keylog_filename = keylog
        # Where the CAs come from is decided now, from this environment, as httpx would.
        self._cafile: str | None = os.environ.get("SSL_CERT_FILE") or None
        self._capath: str | None = None
        if self._cafile is None:
            self._capath = os.environ.get("SSL_CERT_DIR") or None
        self._trusted = False
        self._loading = threading.Lock()

    @property
    def trusted(self) -> bool:
        """Whether the CA certificates have been loaded."""
        return self._trusted

    def trust(self) -> None:
        """Load the CA certificates unless they are loaded (raises what
        `load_verify_locations` raises for a missing or unreadable bundle)."""
        with self._loading:
            if self._trusted:
                return
            if self._cafile is not None:
                self.load_verify_locations(cafile=self._cafile)
            elif self._capath is not None:
                self.load_verify_locations(capath=self._capath)
            else:
                import certifi  # what httpx uses by default; only needed here

                self.load_verify_locations(cafile=certifi.where())
            self._trusted = True

    def wrap_bio(self, *args: Any, **kwargs: Any) -> ssl.SSLObject:
        self.trust()
        return super().wrap_bio(*args, **kwargs)

    def wrap_socket(self, *args: Any, **kwargs: Any) -> ssl.SSLSocket:
        self.trust()
        return super().wrap_socket(*args, **kwargs)
