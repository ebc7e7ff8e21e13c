"""Human output of `config`."""

from __future__ import annotations

import msgspec
from rich.console import Console
from rich.markup import escape

from i18nprune.cli.globals import GlobalOptions
from i18nprune.ops.config import ConfigData


def render(data: ConfigData, out: Console, options: GlobalOptions) -> None:
    out.print(f"config file: {data.config_path or '[dim](none: defaults)[/]'}")
    paths = data.resolved_paths
    out.print(f"root:        {paths.root}")
    out.print(f"locales:     {paths.locales_dir}")
    out.print(f"src:         {', '.join(paths.src_dirs)}")
    out.print(f"cache:       {paths.cache_dir or '[dim](disabled)[/]'}")
    overridden = {k: v for k, v in data.field_sources.items() if v != "default"}
    for key, origin in sorted(overridden.items()):
        found = data.discovered.get(key)
        if found is None:
            out.print(f"  [dim]{key} ← {origin}[/]")
            continue
        guess = " [yellow](a guess)[/]" if found.guess else ""
        value = escape(msgspec.json.encode(found.value).decode())
        out.print(f"  {key} = {value} [dim]← {escape(found.origin)}[/]{guess}")
    if data.discovered and not data.config_file_loaded:
        out.print("  [dim]pin these values with `i18nprune init`[/]")
    out.print(
        "functions:   "
        + ", ".join(escape(f"{name} ({origin})") for name, origin in data.function_sources.items())
    )
    for scope in data.message_ids:
        where = escape(f"{scope.folder or '.'} ← {scope.config}")
        if scope.pattern is not None:
            given = scope.pattern + (", white space kept" if scope.preserve_whitespace else "")
            out.print(f"message ids: {where} (formatjs extract, id pattern {escape(given)})")
        elif scope.options is None:
            out.print(f"message ids: {where}: [yellow]unknown[/] ({escape(scope.problem or '')})")
        else:
            given = msgspec.json.encode(scope.options).decode()
            out.print(f"message ids: {where} (babel-plugin-react-intl-auto {escape(given)})")
    for shown in data.namespace_scopes:
        fallbacks = (
            f", then {', '.join(shown.fallback_namespaces)}" if shown.fallback_namespaces else ""
        )
        where = escape(f"{shown.src}: {shown.default_namespace}{fallbacks} ← {shown.origin}")
        out.print(f"namespace:   {where}")
    out.print(escape(msgspec.json.format(msgspec.json.encode(data.config), indent=2).decode()))
