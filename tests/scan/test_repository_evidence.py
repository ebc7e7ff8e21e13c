"""Repository-wide literal evidence, read directly: which files of the repository are read for
quoted key texts, where their hits are named, the foreign sites found in files the scanner does
not parse, and the per-file cache."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from i18nprune.config.detect.packages import repository_root
from i18nprune.scan import RepositoryScope
from i18nprune.scan.literals import keyed_by_hash
from i18nprune.scan.repository import foreign_sites, read_repository
from tests.conftest import write_tree

KEY = "campaigns.noSubs"
WANTED = keyed_by_hash([KEY, "chat.title"])


def _read(
    repo: Path, project: Path | None = None, *, inside: bool = False, **scope: object
) -> list[tuple[str, str, int]]:
    project = project or repo / "app"
    settings = RepositoryScope(root=repo, **scope)  # type: ignore[arg-type]
    reading = read_repository(settings, WANTED, project, inside=inside)
    return [(site.file, site.text, site.line) for site in reading.literals]


# (path relative to the repository, content, read for quoted texts)
FILES = [
    ("server/main.go", b'a.i18n.T("campaigns.noSubs")\n', True),
    ("server/templates/home.tmpl", b'{{ L.T "campaigns.noSubs" }}\n', True),
    ("backend/chat.py", b'title = I18nData("campaigns.noSubs")\n', True),
    ("views/page.blade.php", b"@lang('campaigns.noSubs')\n", True),
    ("views/page.html.erb", b"<%= t('campaigns.noSubs') %>\n", True),
    ("server/notify.js", b'callback({ msg: "campaigns.noSubs", msgi18n: true });\n', True),
    ("docs/keys.md", b'The key `"campaigns.noSubs"` is shown when...\n', True),
    ("data/menu.json", b'{"label": "campaigns.noSubs"}\n', True),
    ("Makefile", b'echo "campaigns.noSubs"\n', True),
    # What nobody writes by hand, and locale files (definitions, not uses):
    ("node_modules/lib/index.js", b'"campaigns.noSubs"\n', False),
    ("vendor/lib/x.go", b'"campaigns.noSubs"\n', False),
    ("dist/app.js", b'"campaigns.noSubs"\n', False),
    ("web/.next/chunk.js", b'"campaigns.noSubs"\n', False),
    ("web/public/app.min.js", b'"campaigns.noSubs"\n', False),
    ("web/public/app.js.map", b'"campaigns.noSubs"\n', False),
    ("package-lock.json", b'{"x": "campaigns.noSubs"}\n', False),
    ("i18nprune.lock.json", b'{"x": "campaigns.noSubs"}\n', False),
    ("mobile/locales/fr.json", b'{"k": "campaigns.noSubs"}\n', False),
    ("mobile/locales/pt_BR.json", b'{"k": "campaigns.noSubs"}\n', False),
    ("mobile/i18n/de/common.json", b'{"k": "campaigns.noSubs"}\n', False),
    ("mobile/l10n/app_en.arb", b'{"k": "campaigns.noSubs"}\n', False),
    ("mobile/messages.fr.xlf", b'<source>"campaigns.noSubs"</source>\n', False),
    ("po/messages.pot", b'msgid "campaigns.noSubs"\n', False),
    ("assets/logo.png", b'"campaigns.noSubs"\n', False),
    ("assets/blob.txt", b'\x00\x00"campaigns.noSubs"\n', False),
    # Names shaped like locale codes that are not languages are read.
    ("config/app.json", b'{"label": "campaigns.noSubs"}\n', True),
]


@pytest.mark.parametrize(("rel", "content", "read"), FILES, ids=[rel for rel, _, _ in FILES])
def test_which_repository_files_are_read(tmp_path, rel, content, read):
    write_tree(tmp_path, {rel: content, "app/src/.keep": b""})

    found = _read(tmp_path)

    assert found == ([(f"../{rel}", KEY, 1)] if read else [])


def test_a_virtualenv_is_not_read_whatever_its_name(tmp_path):
    write_tree(
        tmp_path,
        {
            ".venv-ci/pyvenv.cfg": "home = /usr/bin\n",
            ".venv-ci/bin/tool.py": 'print("campaigns.noSubs")\n',
            "env/pyvenv.cfg": "home = /usr/bin\n",
            "env/lib/python3.11/x.py": 'print("campaigns.noSubs")\n',
            "tools/bin/tool.py": 'print("campaigns.noSubs")\n',  # no pyvenv.cfg: read
            "app/src/.keep": "",
        },
    )

    assert _read(tmp_path) == [("../tools/bin/tool.py", KEY, 1)]


def test_hits_inside_the_project_are_named_from_its_root_and_skip_scanned_files(tmp_path):
    write_tree(
        tmp_path,
        {
            "app/src/App.tsx": "t('campaigns.noSubs')\n",
            "app/scripts/seed.py": "print('chat.title')\n",
            "server/main.go": '\nT("campaigns.noSubs")\n',
        },
    )
    settings = RepositoryScope(root=tmp_path)
    project = tmp_path / "app"

    inside = read_repository(
        settings, WANTED, project, inside=True, scanned=lambda rel: rel == "src/App.tsx"
    )
    outside = read_repository(settings, WANTED, project, inside=False)

    assert [(s.file, s.text, s.line) for s in inside.literals] == [
        ("scripts/seed.py", "chat.title", 1)
    ]
    assert [(s.file, s.text, s.line) for s in outside.literals] == [("../server/main.go", KEY, 2)]
    assert (inside.files, outside.files) == (1, 1)


def test_locale_files_named_in_skip_are_never_read(tmp_path):
    write_tree(tmp_path, {"app/strings/source.json": b'{"k": "campaigns.noSubs"}\n'})
    skip = frozenset({os.path.realpath(tmp_path / "app/strings/source.json")})

    assert _read(tmp_path, inside=True) == [("strings/source.json", KEY, 1)]
    assert _read(tmp_path, inside=True, skip=skip) == []


def test_folders_narrow_and_exclude_globs_leave_out(tmp_path):
    write_tree(
        tmp_path,
        {
            "server/main.go": b'"campaigns.noSubs"\n',
            "docs/guide.md": b'"campaigns.noSubs"\n',
            "docs/api/keys.md": b'"chat.title"\n',
            "app/src/.keep": b"",
        },
    )

    assert _read(tmp_path, folders=["server"]) == [("../server/main.go", KEY, 1)]
    assert _read(tmp_path, exclude=["docs/**"]) == [("../server/main.go", KEY, 1)]
    assert _read(tmp_path, exclude=["**/*.md"]) == [("../server/main.go", KEY, 1)]
    assert sorted(_read(tmp_path, exclude=["docs/*.md"])) == [
        ("../docs/api/keys.md", "chat.title", 1),
        ("../server/main.go", KEY, 1),
    ]
    # A folder outside the repository is never read.
    assert _read(tmp_path, folders=["../elsewhere"]) == []


def test_a_repository_is_the_nearest_folder_with_git(tmp_path):
    project = tmp_path / "repo" / "apps" / "web"
    project.mkdir(parents=True)
    assert repository_root(project) == project  # no repository: the project alone
    (tmp_path / "repo" / ".git").mkdir()
    assert repository_root(project) == tmp_path / "repo"
    (project / ".git").write_text("gitdir: ../../.git/worktrees/web\n")  # a worktree's file
    assert repository_root(project) == project


def test_the_cache_sees_edits_new_and_removed_files(tmp_path):
    cache = tmp_path / "cache"
    write_tree(tmp_path, {"server/a.go": b'"campaigns.noSubs"\n', "app/src/.keep": b""})
    old = os.stat(tmp_path / "server/a.go").st_mtime_ns - 10**9
    os.utime(tmp_path / "server/a.go", ns=(old, old))  # old enough for its stat to be trusted

    assert _read(tmp_path, cache_dir=cache) == [("../server/a.go", KEY, 1)]
    assert list(cache.iterdir())  # a cache file was written

    (tmp_path / "server/a.go").write_bytes(b'\n\n"chat.title"\n')
    write_tree(tmp_path, {"server/b.go": b'"campaigns.noSubs"\n'})
    assert sorted(_read(tmp_path, cache_dir=cache)) == [
        ("../server/a.go", "chat.title", 3),
        ("../server/b.go", KEY, 1),
    ]

    (tmp_path / "server/b.go").unlink()
    assert _read(tmp_path, cache_dir=cache) == [("../server/a.go", "chat.title", 3)]


def test_a_file_in_another_encoding_still_yields_its_ascii_texts(tmp_path):
    write_tree(tmp_path, {"legacy/page.php": b"<?php // caf\xe9\n__('campaigns.noSubs');\n"})

    assert _read(tmp_path) == [("../legacy/page.php", KEY, 2)]


# (file name, content, foreign sites found: (line, column))
FOREIGN = [
    ("list.component.html", b"<li>{{ item.label | translate }}</li>\n", [(1, 17)]),
    ("list.component.html", b"<li>{{ 'menu.home' | translate }}</li>\n", []),
    ("list.component.html", b'<span [translate]="item.key"></span>\n', [(1, 7)]),
    ("list.component.html", b"<span [translate]=\"'menu.home'\"></span>\n", []),
    ("home.dart", b"Text(AppLocalizations.of(context)!.title)\n", [(1, 6)]),
    ("home.dart", b"Text(label.tr())\n", [(1, 10)]),
    ("home.dart", b"Text('menu.home'.tr())\n", []),
    ("main.go", b"x := a.i18n.T(key)\n", [(1, 12)]),
    ("main.go", b'x := a.i18n.T("menu.home")\n', []),
    ("home.tmpl", b"{{ L.T .Title }}\n", [(1, 4)]),
    ("home.tmpl", b'{{ L.T "public.subTitle" }}\n', []),
    ("app.py", b"msg = _(message)\n", [(1, 7)]),
    ("app.py", b'msg = _("Hello")\nx = I18nData(name)\n', [(2, 5)]),
    ("page.php", b"{{ __($key) }}\n", [(1, 4)]),
    ("page.php", b"{{ __('messages.welcome') }}\n", []),
    ("page.html.erb", b"<%= t(key) %>\n", [(1, 5)]),
    ("page.html.erb", b"<%= t('.title') %>\n", []),
    ("notes.txt", b"t(key)\n", []),
]


@pytest.mark.parametrize(("name", "content", "expected"), FOREIGN)
def test_foreign_sites_are_calls_whose_key_is_not_quoted(name, content, expected):
    found = foreign_sites(name, content)

    assert [(line, column) for line, column, _ in found] == expected
    assert all(preview for _, _, preview in found)


def test_foreign_sites_are_reported_with_their_file(tmp_path):
    write_tree(
        tmp_path,
        {
            "web/src/app/list.component.html": b"<p>\n{{ row.name | translate }}\n</p>\n",
            "app/src/.keep": b"",
        },
    )
    settings = RepositoryScope(root=tmp_path)

    reading = read_repository(settings, WANTED, tmp_path / "app", inside=False)

    assert [(s.file, s.line, s.preview) for s in reading.foreign] == [
        ("../web/src/app/list.component.html", 2, "{{ row.name | translate }}")
    ]
