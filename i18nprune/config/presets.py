"""Framework presets: the translation function names the i18n libraries a project depends on
(its `package.json` files) call keys with, and the names its `formatjs extract` scripts add,
used when `functions` is not set explicitly."""

from __future__ import annotations

from pathlib import Path

from i18nprune.config.detect.manifest import dependencies, manifests
from i18nprune.config.formatjs_cli import ExtractRuns

# vue-i18n's `rt`/`$rt` take a message (what `tm` returned), not a key; `$d`/`$n` take the
# name of a datetime or number format, which lives in the i18n options, not in the messages.
_VUE_I18N = (
    "$t",
    "$tc",
    "$te",
    "$tm",
    "tm",
    "this.$t",
    "global.t",
    "global.tc",
    "global.te",
    "global.tm",
)
# `exists(key)` reads a key as `t` does (with its `ns` option).
_I18NEXT = ("i18n.t", "i18next.t", "i18n.exists", "i18next.exists")
_SVELTE_I18N = ("$_", "$t", "$format", "$json")

# Library → the callee names it adds to the default `t`.
PRESETS: dict[str, tuple[str, ...]] = {
    "vue-i18n": _VUE_I18N,
    "petite-vue-i18n": _VUE_I18N,
    "@nuxtjs/i18n": _VUE_I18N,
    "vue-i18next": ("$t", *_I18NEXT),
    "i18next-vue": ("$t", *_I18NEXT),
    "i18next": _I18NEXT,
    "react-i18next": _I18NEXT,
    "next-i18next": _I18NEXT,
    "svelte-i18n": _SVELTE_I18N,
    # vue-intl's global `$formatMessage` (its alias `$t` is always read) takes a descriptor.
    "vue-intl": ("$formatMessage",),
}


# Angular's libraries (with `@angular/core`): template pipes (`|translate`) and directives
# (`[translate]`, which make the project's `.html` templates scanned) and the key methods of
# their services (`service:Type.method`).
_NGX_TRANSLATE = (
    "|translate",
    "[translate]",
    "[ngx-translate]",
    "service:TranslateService.instant",
    "service:TranslateService.get",
    "service:TranslateService.stream",
)
_TRANSLOCO = (
    "|transloco",
    "[transloco]",
    "service:TranslocoService.translate",
    "service:TranslocoService.selectTranslate",
)
TRANSLOCO_NAMES = frozenset(name for name in _TRANSLOCO if name[0] in "|[")
"""Transloco's pipe and directive: a project naming them reads messages' key references."""
ANGULAR = "@angular/core"
ANGULAR_PRESETS: dict[str, tuple[str, ...]] = {
    # Angular's own i18n: `$localize` in code and `i18n` attributes in templates, whose
    # messages are XLIFF units (`scan.angular_i18n`); naming it makes templates scanned.
    "@angular/localize": ("$localize",),
    "@ngx-translate/core": _NGX_TRANSLATE,
    "@jsverse/transloco": _TRANSLOCO,
    "@ngneat/transloco": _TRANSLOCO,
}


def preset_functions(root: Path, src_dirs: list[str]) -> dict[str, str]:
    """Callee names the project's libraries add, each with where it came from
    (`package.json: vue-i18n`), in the order found.

    Reads the root's `package.json` and the nearest one above each source directory (inside
    the root); a file that cannot be read or parsed adds nothing.
    """
    found: dict[str, str] = {}
    for manifest in manifests(root, src_dirs):
        names = dependencies(manifest)
        relative = manifest.relative_to(root).as_posix()
        presets = [*PRESETS.items(), *(ANGULAR_PRESETS.items() if ANGULAR in names else ())]
        for library, callees in presets:
            if library in names:
                for name in callees:
                    found.setdefault(name, f"{relative}: {library}")
        # FormatJS's extractor reads these too (`--additional-function-names`, and
        # `--additional-component-names` as `<Name>`).
        for name in ExtractRuns(manifest).additional_names():
            found.setdefault(name, f"{relative}: formatjs extract")
    return found
