"""A parse worker loads what examining needs: no OpenSSL (`hashlib` loads libcrypto, ~3.4 MB
resident per process), whose digests it computes with CPython's own BLAKE2b."""

from __future__ import annotations

import hashlib

from i18nprune.scan.examine import content_digest
from i18nprune.system.digests import blake2b, sha1, sha256, sha512
from tests.conftest import modules_after


def test_a_parse_worker_examining_files_does_not_load_openssl() -> None:
    loaded = modules_after(
        "import i18nprune.scan.parse_worker\n"
        "from i18nprune.scan.examine import examine_content\n"
        "examine_content('a.tsx', b\"import { K } from './k';\\nt('a.b'); t(K);\\n\", ('t',),"
        " force=True)\n"
    )

    assert "i18nprune.scan.extract" in loaded  # it did examine
    assert "_hashlib" not in loaded and "hashlib" not in loaded and "_ssl" not in loaded


def test_digests_without_hashlib_equal_hashlib_s() -> None:
    for data in (b"", b"abc", bytes(range(256)) * 1000):
        assert (
            blake2b(data, digest_size=16).digest() == hashlib.blake2b(data, digest_size=16).digest()
        )
        assert sha1(data).hexdigest() == hashlib.sha1(data).hexdigest()
        assert sha256(data).hexdigest() == hashlib.sha256(data).hexdigest()
        assert sha512(data).hexdigest() == hashlib.sha512(data).hexdigest()
    content = b"t('home.title');\n"
    assert (
        content_digest(content, ".tsx")
        == hashlib.blake2b(b".tsx\0" + content, digest_size=16).digest()
    )
