"""The import rules of docs/architecture.md, held by a test: each layer imports only the layers
below it, the worker processes import only the wire and the provider code they run, and no
module imports another that (directly or not) imports it back.

The graph is read by grimp from the installed source: for the layers with `TYPE_CHECKING`
imports (an annotation that runs upward still couples the layers), for cycles without them (an
import only the type checker follows cannot loop at run time)."""

from __future__ import annotations

from collections import defaultdict

import grimp
import pytest

LAYERS: tuple[tuple[str, ...], ...] = (
    ("i18nprune.__main__",),
    ("i18nprune.cli",),
    ("i18nprune.lsp",),
    ("i18nprune.serve",),
    ("i18nprune.fanout", "i18nprune.reports"),
    ("i18nprune.ops",),
    ("i18nprune.project", "i18nprune.translate"),
    ("i18nprune.routing", "i18nprune.template", "i18nprune.babel_config"),
    (
        "i18nprune.reference",
        "i18nprune.workspace",
        "i18nprune.pool",
        "i18nprune.babel_reader",
        "i18nprune.formatjs_scripts",
    ),
    ("i18nprune.fleet",),
    # The core: what configuration, locale files and the scan share. These import one another
    # (config reads scan options, the scan reads key syntax), never anything above them.
    (
        "i18nprune.config",
        "i18nprune.keys",
        "i18nprune.locale_codes",
        "i18nprune.locales",
        "i18nprune.plural_forms",
        "i18nprune.scan",
    ),
    ("i18nprune.envelope", "i18nprune.system"),
    (
        "i18nprune.globs",
        "i18nprune.jsontext",
        "i18nprune.placeholders",
        "i18nprune.syntax_tree",
        "i18nprune.twins",
        "i18nprune.container",
    ),
)
"""Top to bottom. Packages of one layer may import each other only where the layer says so
(the core); elsewhere they are independent."""
CORE = LAYERS[10]
WORKER_IMPORTS = (
    "i18nprune.pool.messages",
    "i18nprune.pool.framing",
    "i18nprune.config.secrets",
    "i18nprune.locale_codes",
    "i18nprune.system.descriptors",
    "i18nprune.translate.pseudo",
)
"""All the worker processes (`workers/`, installed as `i18nprune_workers`) may import of
i18nprune: the wire messages and framing, secrets' redaction, locale-code helpers, claiming
their standard streams, and the pseudo provider's text transform — small modules that import
nothing heavy, so a worker starts fast and knows nothing of projects."""
ROOT_MODULES = {"i18nprune"}
"""The package itself (`__version__`): importable from anywhere."""


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph("i18nprune", "i18nprune_workers", cache_dir=None)


def area(module: str) -> str:
    """The top-level package or module of `module` under i18nprune (or the workers)."""
    parts = module.split(".")
    if parts[0] == "i18nprune_workers":
        return "i18nprune_workers"
    return ".".join(parts[:2]) if len(parts) > 1 else parts[0]


def rank() -> dict[str, int]:
    return {name: index for index, layer in enumerate(LAYERS) for name in layer}


def imports(graph: grimp.ImportGraph) -> list[tuple[str, str]]:
    return [
        (importer, imported)
        for importer in sorted(graph.modules)
        for imported in sorted(graph.find_modules_directly_imported_by(importer))
    ]


def test_every_package_has_a_layer(graph: grimp.ImportGraph) -> None:
    placed = rank()
    unplaced = {
        area(module)
        for module in graph.modules
        if area(module) not in placed
        and area(module) not in ROOT_MODULES
        and area(module) not in ("i18nprune_workers", "i18nprune.testing")
    }
    assert not unplaced, f"give these a layer in LAYERS (and docs/architecture.md): {unplaced}"


def test_each_layer_imports_only_the_layers_below_it(graph: grimp.ImportGraph) -> None:
    placed = rank()
    upward = []
    for importer, imported in imports(graph):
        a, b = area(importer), area(imported)
        if a == b or b in ROOT_MODULES or a not in placed or b not in placed:
            continue
        same_core_layer = a in CORE and b in CORE
        if placed[b] < placed[a] or (placed[b] == placed[a] and not same_core_layer):
            upward.append(f"{importer} imports {imported}")
    assert not upward, "imports against the layers:\n" + "\n".join(upward)


def test_the_testing_helpers_are_imported_by_nothing_of_the_tool(graph: grimp.ImportGraph) -> None:
    found = [
        f"{importer} imports {imported}"
        for importer, imported in imports(graph)
        if area(imported) == "i18nprune.testing" and area(importer) != "i18nprune.testing"
    ]
    assert not found, found


def test_the_workers_import_only_the_wire_and_the_provider_code(graph: grimp.ImportGraph) -> None:
    found = [
        f"{importer} imports {imported}"
        for importer, imported in imports(graph)
        if area(importer) == "i18nprune_workers"
        and imported.startswith("i18nprune.")
        and not imported.startswith(WORKER_IMPORTS)
    ]
    assert not found, found


def test_no_module_imports_itself_back() -> None:
    runtime = grimp.build_graph(
        "i18nprune", "i18nprune_workers", cache_dir=None, exclude_type_checking_imports=True
    )
    edges: dict[str, set[str]] = defaultdict(set)
    for importer, imported in imports(runtime):
        edges[importer].add(imported)
    cycles = _cycles(edges)
    assert not cycles, "import cycles:\n" + "\n".join(" → ".join(c) for c in cycles)


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    counter = 0
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found
