"""Angular templates (`.html`) read as key evidence: ngx-translate's pipe and directive,
Transloco's `t()` under `*transloco`, its pipe and directive, with positions in the template;
the services' methods and the markers in TypeScript; `.html` scanned only with Angular names."""

from __future__ import annotations

import pytest

from i18nprune.scan.angular import template_document
from i18nprune.scan.callees import CalleeNames
from i18nprune.scan.extract import extract_file
from tests.scan.conftest import ScanProject, issue_codes, keys_of

NGX = ("t", "|translate", "[translate]", "service:TranslateService.instant")
NGX_SERVICE = (
    "t",
    "|translate",
    "[translate]",
    "service:TranslateService.instant",
    "service:TranslateService.get",
    "service:TranslateService.stream",
)
TRANSLOCO = ("t", "|transloco", "[transloco]", "service:TranslocoService.translate")


def scanned(project: ScanProject, source: str, functions: tuple[str, ...], name: str = "a.html"):
    project.write(f"src/{name}", source)
    return project.scan(functions=functions)


def dynamic_of(result) -> list[tuple[str | None, str | None]]:
    return sorted((site.prefix, site.suffix or None) for site in result.dynamic)


@pytest.mark.parametrize(
    ("template", "keys"),
    [
        ("<h1>{{ 'home.title' | translate }}</h1>", ["home.title"]),
        ("<p>{{'home.params'|translate:{ n: count }}}</p>", ["home.params"]),
        ("<p>{{ 'home.chain' | translate:params | uppercase }}</p>", ["home.chain"]),
        ("<b [title]=\"'home.bound' | translate\"></b>", ["home.bound"]),
        ("<input placeholder=\"{{ 'home.attr' | translate }}\">", ["home.attr"]),
        (
            '<b [translate]="\'home.directive\'" [translateParams]="{ v: 1 }"></b>',
            ["home.dir" + "ective"],
        ),
        ('<b translate="home.static"></b>', ["home.static"]),
        ("<p translate>home.content</p>", ["home.content"]),
        ("<p translate>\n  home.first <b>x</b> home.second\n</p>", ["home.first", "home.second"]),
        ("<p>{{ (ok ? 'home.yes' : 'home.no') | translate }}</p>", ["home.no", "home.yes"]),
        ("<b (click)=\"note('home.event' | translate)\"></b>", ["home.event"]),
        ("@if (user) { <p>{{ 'home.if' | translate }}</p> }", ["home.if"]),
        ("@if (('home.cond' | translate) === x) { }", ["home.cond"]),
        ("@for (x of xs; track x.id) { {{ 'home.for' | translate }} }", ["home.for"]),
        ("@let label = 'home.let' | translate;", ["home.let"]),
        ("<p>{{ [ 'home.in.array' | translate ] }}</p>", ["home.in.array"]),
        ("<p>{{ f('home.in.call' | translate, 2) }}</p>", ["home.in.call"]),
        ("<p>{{ `(${'home.in.literal' | translate})` }}</p>", ["home.in.literal"]),
    ],
)
def test_ngx_translate_template_proves_its_keys(
    project: ScanProject, template: str, keys: list[str]
) -> None:
    result = scanned(project, template, NGX)
    assert keys_of(result) == keys
    assert issue_codes(result) == []


@pytest.mark.parametrize(
    ("template", "dynamic"),
    [
        ("<p>{{ ('status.' + s) | translate }}</p>", [("status.", None)]),
        ("<p>{{ 'status.' + s | translate }}</p>", [("status.", None)]),
        ("<b [translate]=\"'kind.' + kind\"></b>", [("kind.", None)]),
        ("<p>{{ item.label | translate }}</p>", [(None, None)]),
        ("<p>{{ when | date | translate }}</p>", [(None, None)]),
        ('<b translate="menu.{{ name }}"></b>', [("menu.", None)]),
        ("<p translate>menu.{{ name }}</p>", [("menu.", None)]),
    ],
)
def test_a_key_the_template_builds_is_a_dynamic_site(
    project: ScanProject, template: str, dynamic: list[tuple[str | None, str | None]]
) -> None:
    result = scanned(project, template, NGX)
    assert keys_of(result) == []
    assert dynamic_of(result) == dynamic


def test_the_sites_are_at_their_place_in_the_template(project: ScanProject) -> None:
    result = scanned(
        project,
        "<div>\n  <h1 class=\"x\">{{ 'home.title' | translate }}</h1>\n"
        "  <p translate>home.intro</p>\n</div>\n",
        NGX,
    )
    sites = sorted((o.key, o.file, o.line, o.column) for o in result.observations)
    assert sites == [
        ("home.intro", "src/a.html", 3, 16),
        ("home.title", "src/a.html", 2, 20),
    ]


def test_a_key_written_as_a_site_is_not_a_key_kept_as_data() -> None:
    content = b"<p>{{ 'home.title' | translate }}</p><b translate=\"home.x\"></b>"
    facts, key_literals = extract_file(content, ".html", CalleeNames(NGX))
    assert sorted(key_literals) == [content.index(b"'home.title'"), content.index(b'"home.x"')]
    assert [site.preview for site in facts.sites] == ["'home.title' | translate", "home.x"]


def test_transloco_read_prefixes_every_t_under_its_element(project: ScanProject) -> None:
    template = (
        "<ng-container *transloco=\"let t; read: 'dash'\">\n"
        "  <h1>{{ t('title') }}</h1>\n"
        "  <section *transloco=\"let t; read:'dash.stats'\">{{ t('count', { n }) }}</section>\n"
        "  <a [title]=\"t('help')\">{{ t('more') }}</a>\n"
        "</ng-container>\n"
        "<p>{{ t('outside') }}</p>\n"
    )
    assert keys_of(scanned(project, template, TRANSLOCO)) == [
        "dash.help",
        "dash.more",
        "dash.stats.count",
        "dash.title",
        "outside",
    ]


def test_transloco_template_with_let_and_read_inputs(project: ScanProject) -> None:
    template = (
        "<ng-template transloco let-tr translocoRead=\"admin\">{{ tr('users') }}</ng-template>\n"
        "<ng-template transloco let-t [translocoRead]=\"'shop'\">{{ t('cart') }}</ng-template>\n"
        "<ng-container *transloco=\"let t\">{{ t('root.key') }}</ng-container>\n"
    )
    assert keys_of(scanned(project, template, TRANSLOCO)) == [
        "admin.users",
        "root.key",
        "shop.cart",
    ]


def test_transloco_pipe_and_directive(project: ScanProject) -> None:
    template = (
        "<p>{{ 'app.footer' | transloco }}</p>\n"
        '<span transloco="app.badge" [translocoParams]="{ n: 1 }"></span>\n'
        "<span [transloco]=\"'app.bound'\"></span>\n"
    )
    assert keys_of(scanned(project, template, TRANSLOCO)) == [
        "app.badge",
        "app.bound",
        "app.footer",
    ]


def test_a_transloco_language_or_scope_argument_keeps_the_key_under_any_scope(
    project: ScanProject,
) -> None:
    project.write("src/a.html", "<p>{{ 'hello' | transloco: {} : 'admin' }}</p>")
    project.write(
        "src/a.ts",
        "import { TranslocoService } from '@jsverse/transloco';\n"
        "class A { constructor(private tl: TranslocoService) {}\n"
        "  go() { this.tl.selectTranslate('title', {}, 'admin'); } }\n",
    )
    result = project.scan(functions=(*TRANSLOCO, "service:TranslocoService.selectTranslate"))
    assert keys_of(result) == ["hello", "title"]
    assert dynamic_of(result) == [(None, ".hello"), (None, ".title")]


def test_transloco_read_with_a_computed_prefix_protects_by_the_key_tail(
    project: ScanProject,
) -> None:
    template = "<p *transloco=\"let t; read: scope\">{{ t('title') }}</p>"
    result = scanned(project, template, TRANSLOCO)
    assert keys_of(result) == []
    assert dynamic_of(result) == [(None, ".title")]


@pytest.mark.parametrize(
    "template",
    [
        "<h3>Quality & Root {{ a > 1 ? 'x' : 'y' }}</h3>",
        "<p>a > b and c < d</p>",
        '<b (click)="delete(); new()"></b>',
        '<li *ngFor="let item of xs; trackBy: f; index as i">{{ i }}</li>',
        '<div *ngIf="ready && ok; then yes else no"></div>',
        "@if (a < b) { <p>less</p> } @else if (b > a) { }",
        "@defer (on idle; when ready) { <p>x</p> }",
    ],
)
def test_angular_syntax_html_does_not_allow_is_no_syntax_error(
    project: ScanProject, template: str
) -> None:
    result = scanned(project, template + "\n<p>{{ 'after.it' | translate }}</p>\n", NGX)
    assert issue_codes(result) == []
    assert keys_of(result) == ["after.it"]


def test_a_template_the_grammar_cannot_read_is_not_read_evidence(project: ScanProject) -> None:
    result = scanned(project, "<p>{{ 'home.title' | translate }}</p>\n<div <<b>\n", NGX)
    assert "i18nprune.scan.parse_error" in issue_codes(result)
    assert "src/a.html" in {issue.path for issue in result.issues}


def test_an_unconverted_pipe_argument_stays_valid_typescript() -> None:
    document = template_document(
        b"<p>{{ a | date:'short':tz | translate:{ x: (b ? c : d) } }}</p>", CalleeNames(NGX)
    )
    assert document.error is None
    assert document.document == (
        b";(translate(__pipe_date(a , 'short', tz ), { x: (b ? c : d) }))\n"
    )


def test_a_pipe_inside_a_template_literal_of_an_expression_is_converted() -> None:
    # Angular 20's template literals (Ghostfolio: `{{ `${(element.id | slice: 0 : 5)}...` }}`).
    document = template_document(
        b"<p>{{ `${(id | slice: 0 : 5)}...` }}</p><b>{{ `a.${'k' | translate}` }}</b>",
        CalleeNames(NGX),
    )
    assert document.error is None
    assert document.document == (
        b";(`${(__pipe_slice(id ,  0 ,  5))}...`)\n;(`a.${translate('k' )}`)\n"
    )


def test_html_is_scanned_only_with_angular_names(project: ScanProject) -> None:
    project.write("src/index.html", "<p>{{ 'home.title' | translate }}</p>")
    project.write("src/page.ts", "t('page.key');")
    without = project.scan(functions=("t",))
    assert keys_of(without) == ["page.key"]
    assert keys_of(project.scan(functions=NGX)) == ["home.title", "page.key"]


def test_translate_service_methods_through_its_holders(project: ScanProject) -> None:
    project.write(
        "src/app.ts",
        "import { inject } from '@angular/core';\n"
        "import { TranslateService } from '@ngx-translate/core';\n"
        "export class A {\n"
        "  private readonly ts = inject(TranslateService);\n"
        "  field: TranslateService;\n"
        "  constructor(private translate: TranslateService, private http: Http) {}\n"
        "  go() {\n"
        "    this.translate.instant('svc.instant');\n"
        "    this.translate.get(['svc.a', 'svc.b']);\n"
        "    this.ts.stream('svc.stream');\n"
        "    this.field.instant('svc.field');\n"
        "    this.http.get('/api/x');\n"
        "  }\n"
        "}\n",
    )
    assert keys_of(project.scan(functions=NGX_SERVICE)) == [
        "svc.a",
        "svc.b",
        "svc.field",
        "svc.instant",
        "svc.stream",
    ]


def test_markers_and_transloco_functions_imported_from_their_modules(
    project: ScanProject,
) -> None:
    project.write(
        "src/app.ts",
        "import { marker as _ } from '@biesbjerg/ngx-translate-extract-marker';\n"
        "import { translate, TranslocoService } from '@jsverse/transloco';\n"
        "import { marker } from '@jsverse/transloco-keys-manager/marker';\n"
        "export const a = _('marked.one');\n"
        "export const b = marker('marked.two');\n"
        "export const c = translate('tl.fn');\n"
        "class S {\n"
        "  constructor(private tl: TranslocoService) {}\n"
        "  go() { this.tl.translate('tl.svc'); }\n"
        "}\n",
    )
    project.write("src/other.ts", "const translate = (x: string) => x; translate('not.a.key');\n")
    assert keys_of(project.scan(functions=TRANSLOCO)) == [
        "marked.one",
        "marked.two",
        "tl.fn",
        "tl.svc",
    ]
