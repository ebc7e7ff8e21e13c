"""Messages that say what happened (issue 27, point 20): each names what the run really did."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from i18nprune.envelope import Code
from tests.conftest import CliResult

RunCli = Callable[..., CliResult]
MakeProject = Callable[[dict[str, Any]], Path]
BASE = {
    "i18nprune.config.json": {"locales": {"source": "en"}, "src": "src"},
    "locales/en.json": {"a": "A", "b": {"c": "C"}},
}


def dynamic_message(result: CliResult) -> str:
    [issue] = [i for i in result.envelope["issues"] if i["code"] == Code.VALIDATE_DYNAMIC]
    return str(issue["message"])


@pytest.mark.parametrize(
    ("call", "says"),
    [
        ("t(`b.${x}`)", "their prefixes are protected"),
        ("t(x + 'Title')", "no prefix is protected: keys ending with 1 suffix(es) are"),
        ("t(key)", "none has a static prefix or suffix, so no key is protected by them"),
    ],
)
def test_the_dynamic_sites_warning_says_what_they_protect(
    call: str, says: str, make_project: MakeProject, run_cli: RunCli
) -> None:
    root = make_project({**BASE, "src/x.ts": f"t('a');\n{call};\n"})

    message = dynamic_message(run_cli("validate", "--json", cwd=root))

    assert says in message
    if "no" in says.split()[0:1] or says.startswith("none"):
        assert "their prefixes are protected" not in message
