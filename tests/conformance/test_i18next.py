"""i18next, react-i18next and next-i18next: every call shape of their documentation, each case
saying which keys the code reads and which it does not (`tests/conformance/harness.py`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conformance.harness import Case, check, params

REACT = ("i18next", "react-i18next")
HOOK = "import { useTranslation } from 'react-i18next';\n"

CASES = [
    Case(
        "use_translation_t",
        {
            "src/App.tsx": HOOK + "export function App() {\n  const { t } = useTranslation();\n"
            "  return <p>{t('home.title')}</p>;\n}\n"
        },
        used={"home.title"},
        unused={"home.unused"},
        dependencies=REACT,
        doc="react.i18next.com/latest/usetranslation-hook",
    ),
    Case(
        "use_translation_namespace",
        {
            "src/App.tsx": HOOK
            + "export function App() {\n  const { t } = useTranslation('auth');\n"
            "  return <p>{t('login.title')}</p>;\n}\n"
        },
        used={"auth:login.title"},
        unused={"auth:login.unused", "translation:login.title"},
        namespaces=("translation", "auth"),
        dependencies=REACT,
        doc="react.i18next.com/latest/usetranslation-hook#loading-namespaces",
    ),
    Case(
        "selector_api",
        {
            "src/App.tsx": HOOK + "export function App() {\n  const { t } = useTranslation();\n"
            "  return <p>{t($ => $.app.title.main)}</p>;\n}\n"
        },
        used={"app.title.main"},
        unused={"app.title.other"},
        dependencies=REACT,
        doc="i18next.com/overview/typescript#selector-api",
        gap="the selector API is read as a dynamic site with no static part",
    ),
]


@pytest.mark.parametrize("case", params(CASES))
def test_case(case: Case, tmp_path: Path) -> None:
    check(case, tmp_path)
