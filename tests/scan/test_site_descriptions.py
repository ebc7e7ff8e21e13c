"""`i18n:` comments on the line above a key site describe its key: `//`, `/* */`, JSX
`{/* */}` and a template's `<!-- -->`; nothing else on that line, and no other line, counts."""

from __future__ import annotations

import os

from i18nprune.scan import ScanResult
from tests.scan.conftest import ScanProject


def described(result: ScanResult) -> dict[str, str | None]:
    return {site.key: site.description for site in result.observations}


def test_a_line_comment_above_a_call_describes_its_key(project: ScanProject) -> None:
    project.write(
        "src/app.ts",
        "// i18n: Hero heading on the landing page\nt('home.title');\nt('home.body');\n",
    )
    assert described(project.scan()) == {
        "home.title": "Hero heading on the landing page",
        "home.body": None,
    }


def test_block_and_jsx_comments_describe_the_keys_below_them(project: ScanProject) -> None:
    project.write(
        "src/app.tsx",
        "\n".join(
            [
                "export function App() {",
                "  /* i18n: Title of the settings page */",
                "  const title = t('settings.title');",
                "  return (",
                "    <div>",
                "      {/* i18n:   Label of the   save button */}",
                "      <button>{t('settings.save')}</button>",
                "    </div>",
                "  );",
                "}",
            ]
        ),
    )
    assert described(project.scan()) == {
        "settings.title": "Title of the settings page",
        "settings.save": "Label of the save button",
    }


def test_a_vue_template_comment_describes_the_key_below_it(project: ScanProject) -> None:
    project.write(
        "src/App.vue",
        "<template>\n  <!-- i18n: Greeting in the header -->\n  <h1>{{ $t('header.hello') }}</h1>\n"
        "</template>\n",
    )
    assert described(project.scan(functions=("$t",))) == {"header.hello": "Greeting in the header"}


def test_only_a_comment_alone_on_the_line_right_above_counts(project: ScanProject) -> None:
    project.write(
        "src/app.ts",
        "\n".join(
            [
                "// i18n: too far away",
                "",
                "t('a');",
                "const x = 1; // i18n: shares its line with code",
                "t('b');",
                "// i18n:",
                "t('c');",
                "t('d'); // i18n: after the call",
            ]
        ),
    )
    assert described(project.scan()) == {"a": None, "b": None, "c": None, "d": None}


def test_every_site_on_the_line_below_a_comment_shares_it(project: ScanProject) -> None:
    project.write("src/app.ts", "// i18n: Pager\nt('pager.next'); t('pager.back');\n")
    assert described(project.scan()) == {"pager.next": "Pager", "pager.back": "Pager"}


def test_a_warm_scan_keeps_the_descriptions(project: ScanProject) -> None:
    path = project.write("src/app.ts", "// i18n: Hero heading\nt('home.title');\n")
    os.utime(path, (1_000_000, 1_000_000))
    cold = project.scan(cached=True)
    warm = project.scan(cached=True)
    assert warm.parsed == 0
    assert described(warm) == described(cold) == {"home.title": "Hero heading"}
