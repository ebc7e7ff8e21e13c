"""Angular apps through the real CLI with no config file: an ngx-translate app (pipe,
directive, element text, TranslateService, a backend naming a key) and a Transloco app (a
scope folder, `read:`, the pipe and directive, TranslocoService, key references)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import write_tree

NGX_APP = {
    "package.json": {
        "dependencies": {"@angular/core": "^18.0.0", "@ngx-translate/core": "^15.0.0"}
    },
    "src/app/home/home.component.html": (
        "<h1>{{ 'home.title' | translate }}</h1>\n"
        "<p translate>home.intro</p>\n"
        '<button [title]="\'home.buy\' | translate: { count: n }" (click)="buy()">\n'
        "  {{ (ready ? 'home.ready' : 'home.wait') | translate }}\n"
        "</button>\n"
        "<span [translate]=\"'home.status.' + status\"></span>\n"
        "@if (user) { <p>{{ 'home.welcome' | translate: { name: user.name } }}</p> }\n"
        '<li *ngFor="let item of menu">{{ item.label | translate }}</li>\n'
        "<p>{{ 'home.gone' | translate }}</p>\n"
    ),
    "src/app/home/home.component.ts": (
        "import { Component } from '@angular/core';\n"
        "import { TranslateService } from '@ngx-translate/core';\n"
        "@Component({ selector: 'app-home', templateUrl: './home.component.html' })\n"
        "export class HomeComponent {\n"
        "  menu = [{ label: 'menu.orders' }];\n"
        "  constructor(private translate: TranslateService) {}\n"
        "  buy() { alert(this.translate.instant('home.bought')); }\n"
        "}\n"
    ),
    "server/Controllers/OrdersController.cs": (
        'public class OrdersController { string Error() => "errors.outOfStock"; }\n'
    ),
    "src/assets/i18n/en.json": {
        "home": {
            "title": "Shop",
            "intro": "Hi",
            "buy": "Buy",
            "ready": "Ready",
            "wait": "Wait",
            "status": {"open": "Open", "closed": "Closed"},
            "welcome": "Welcome {{name}}",
            "bought": "Bought",
            "old": "Old",
        },
        "menu": {"orders": "Orders"},
        "errors": {"outOfStock": "Out of stock"},
        "legacy": {"banner": "Gone"},
    },
    "src/assets/i18n/de.json": {"home": {"title": "Laden", "old": "Alt"}},
}

TRANSLOCO_APP = {
    "package.json": {"dependencies": {"@angular/core": "^18.0.0", "@jsverse/transloco": "^7.4.0"}},
    "src/app/app.component.html": (
        '<ng-container *transloco="let t">\n'
        "  <h1>{{ t('app.title') }}</h1>\n"
        "  <nav *transloco=\"let t; read: 'nav'\">\n"
        "    <a>{{ t('home') }}</a> <a [title]=\"t('help')\">?</a>\n"
        "  </nav>\n"
        "</ng-container>\n"
        "<p>{{ 'app.footer' | transloco }}</p>\n"
        '<span transloco="app.badge"></span>\n'
    ),
    "src/app/admin/admin.component.html": (
        "<section *transloco=\"let t; read: 'admin'\">\n"
        "  <h2>{{ t('title') }}</h2>\n"
        "  <p>{{ t('users.count', { n: users.length }) }}</p>\n"
        "  <p>{{ t('report') }}</p>\n"
        "</section>\n"
    ),
    "src/app/admin/admin.component.ts": (
        "import { Component, inject } from '@angular/core';\n"
        "import { TranslocoService, provideTranslocoScope } from '@jsverse/transloco';\n"
        "@Component({ selector: 'app-admin', templateUrl: './admin.component.html',\n"
        "  providers: [provideTranslocoScope('admin')] })\n"
        "export class AdminComponent {\n"
        "  private transloco = inject(TranslocoService);\n"
        "  users: string[] = [];\n"
        "  save() { return this.transloco.translate('admin.saved'); }\n"
        "}\n"
    ),
    "src/assets/i18n/en.json": {
        "common": {"save": "Save", "unused": "Unused"},
        "app": {"title": "Desk", "footer": "(c)", "badge": "New", "legacy": "Old"},
        "nav": {"home": "Home", "help": "{{ common.save }} help", "blog": "Blog"},
    },
    "src/assets/i18n/fr.json": {"app": {"title": "Bureau"}},
    "src/assets/i18n/admin/en.json": {
        "title": "Admin",
        "saved": "Saved",
        "users": {"count": "{{n}} users"},
        "unused": "Unused",
    },
    "src/assets/i18n/admin/fr.json": {"title": "Admin"},
}


def _codes(*envelopes: dict) -> list[str]:
    return [issue["code"] for envelope in envelopes for issue in envelope["issues"]]


@pytest.mark.slow
def test_ngx_translate_app_zero_config(tmp_path: Path, run_cli) -> None:
    root = write_tree(tmp_path / "shop", NGX_APP)
    cleanup = run_cli("cleanup", "--dry-run", "--json", cwd=root)
    validate = run_cli("validate", "--json", cwd=root)
    assert cleanup.code == 0, cleanup.stdout
    assert set(cleanup.envelope["data"]["keys"]) == {"home.old", "legacy.banner"}
    assert validate.envelope["data"]["missing"] == ["home.gone"]
    assert "i18nprune.scan.parse_error" not in _codes(cleanup.envelope, validate.envelope)
    missing = run_cli("missing", "--dry-run", "--json", cwd=root)
    assert missing.envelope["data"]["paths"] == ["home.gone"]


@pytest.mark.slow
def test_ngx_translate_template_that_does_not_parse_stops_cleanup(tmp_path: Path, run_cli) -> None:
    root = write_tree(tmp_path / "shop", NGX_APP)
    broken = root / "src/app/home/broken.component.html"
    broken.write_text("<p>{{ 'legacy.banner' | translate }}</p>\n<div <<b>\n")
    cleanup = run_cli("cleanup", "--dry-run", "--json", cwd=root)
    assert cleanup.code == 1
    assert cleanup.envelope["ok"] is False
    assert "i18nprune.scan.incomplete_evidence" in _codes(cleanup.envelope)


@pytest.mark.slow
def test_transloco_app_with_a_scope_folder_zero_config(tmp_path: Path, run_cli) -> None:
    root = write_tree(tmp_path / "desk", TRANSLOCO_APP)
    cleanup = run_cli("cleanup", "--dry-run", "--json", cwd=root)
    validate = run_cli("validate", "--json", cwd=root)
    assert cleanup.code == 0, cleanup.stdout
    # The root file's keys are its namespace's (`translation`), spelled with `.` in reports.
    assert set(cleanup.envelope["data"]["keys"]) == {
        "admin.unused",
        "translation.app.legacy",
        "translation.common.unused",
        "translation.nav.blog",
    }
    assert validate.envelope["data"]["missing"] == ["admin.report"]
    codes = _codes(cleanup.envelope, validate.envelope)
    assert "i18nprune.scan.parse_error" not in codes
    assert "i18nprune.validate.missing_nested" not in codes  # `{{n}}` is a parameter
    missing = run_cli("missing", "--dry-run", "--json", cwd=root)
    assert missing.envelope["data"]["paths"] == ["admin.report"]


@pytest.mark.slow
def test_transloco_root_key_named_like_a_scope_keeps_the_root_file_whole(
    tmp_path: Path, run_cli
) -> None:
    app = dict(TRANSLOCO_APP)
    app["src/assets/i18n/en.json"] = {
        "app": {"title": "Desk", "legacy": "Old"},
        "admin": {"menu": "Admin menu"},
    }
    app["src/app/app.component.html"] = (
        "<p>{{ 'app.title' | transloco }} {{ 'admin.menu' | transloco }}</p>"
    )
    root = write_tree(tmp_path / "desk", app)
    cleanup = run_cli("cleanup", "--dry-run", "--json", cwd=root)
    assert cleanup.code == 0, cleanup.stdout
    # Transloco merges the root's `admin` with the scope `admin`: read alone, the root file
    # keeps `admin.menu`, and the scope's keys are never offered.
    assert set(cleanup.envelope["data"]["keys"]) == {"app.legacy"}
