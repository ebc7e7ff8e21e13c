"""A default namespace per app folder: one locale tree serving several apps whose i18next
instances differ (`locales.scopes`, and discovery of `defaultNS`/`fallbackNS` from each app's own
static set-up), through the real CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from i18nprune.config.i18n_setup import discovered_setups, read_setup
from tests.conftest import write_tree

HOOK = "import { useTranslation } from 'react-i18next';\n"
MONOREPO = {
    ".git/HEAD": "ref: refs/heads/main\n",
    "i18nprune.config.json": {
        "src": ["apps/desktop/src", "apps/mobile/src"],
        "locales": {
            "directory": "locales",
            "mode": "locale_directory",
            "structure": "locale_per_dir",
            "namespaces": "file",
        },
    },
    "apps/desktop/package.json": {"name": "desktop"},
    "apps/mobile/package.json": {"name": "mobile"},
    "apps/desktop/src/i18n.ts": (
        "import i18next from 'i18next';\n\n"
        "i18next.init({ ns: ['app', 'common'], defaultNS: 'app', fallbackNS: 'common' });\n"
    ),
    "apps/mobile/src/i18n/index.ts": (
        "import i18next from 'i18next';\nexport const i18n = i18next.createInstance({\n"
        "  defaultNS: 'mobile',\n});\n"
    ),
    "apps/desktop/src/Home.tsx": HOOK
    + "export const Home = () => { const { t } = useTranslation(); "
    "return [t('title'), t('ok'), t('common:help')]; };\n",
    "apps/mobile/src/Home.tsx": HOOK
    + "export const Home = () => { const { t } = useTranslation(); "
    "return [t('title'), t('tabs.home')]; };\n",
    "locales/en/app.json": {"title": "Desktop", "unused": "Never shown"},
    "locales/en/mobile.json": {"title": "Mobile", "tabs": {"home": "Home"}, "gone": "Old tab"},
    "locales/en/common.json": {"ok": "OK", "help": "Help", "cancel": "Cancel"},
    "locales/fr/app.json": {"title": "Bureau", "unused": "Jamais"},
    "locales/fr/mobile.json": {"title": "Mobile", "tabs": {"home": "Accueil"}, "gone": "Vieux"},
    "locales/fr/common.json": {"ok": "OK", "help": "Aide", "cancel": "Annuler"},
}
UNUSED = ["app:unused", "common:cancel", "mobile:gone"]


@pytest.mark.slow
def test_each_app_folder_gets_the_namespace_its_own_setup_names(tmp_path, run_cli):
    root = write_tree(tmp_path, MONOREPO)

    cleanup = run_cli("cleanup", "--dry-run", "--json", cwd=root).envelope
    validate = run_cli("validate", "--json", cwd=root).envelope

    assert cleanup["ok"] is True, cleanup["issues"]
    assert cleanup["data"]["keys"] == UNUSED
    assert validate["data"]["missing"] == []


@pytest.mark.slow
def test_config_shows_which_scope_each_folder_got_and_from_where(tmp_path, run_cli):
    root = write_tree(tmp_path, MONOREPO)

    envelope = run_cli("config", "--json", cwd=root).envelope
    human = run_cli("config", cwd=root).stdout

    assert envelope["data"]["namespaceScopes"] == [
        {
            "src": ".",
            "defaultNamespace": "translation",
            "fallbackNamespaces": [],
            "origin": "default",
        },
        {
            "src": "apps/desktop",
            "defaultNamespace": "app",
            "fallbackNamespaces": ["common"],
            "origin": "apps/desktop/src/i18n.ts:3",
        },
        {
            "src": "apps/mobile",
            "defaultNamespace": "mobile",
            "fallbackNamespaces": [],
            "origin": "apps/mobile/src/i18n/index.ts:3",
        },
    ]
    assert envelope["data"]["fieldSources"]["locales.scopes"] == "discovery"
    assert "apps/desktop: app, then common ← apps/desktop/src/i18n.ts:3" in human


@pytest.mark.slow
def test_configured_scopes_win_over_discovery(tmp_path, run_cli):
    root = write_tree(tmp_path, MONOREPO)
    config = json.loads((root / "i18nprune.config.json").read_text())
    config["locales"]["scopes"] = [
        {"src": "apps/desktop", "defaultNamespace": "app", "fallbackNamespaces": ["common"]},
        {"src": "apps/mobile", "defaultNamespace": "common"},
    ]
    write_tree(root, {"i18nprune.config.json": config})

    cleanup = run_cli("cleanup", "--dry-run", "--json", cwd=root).envelope
    shown = run_cli("config", "--json", cwd=root).envelope["data"]["namespaceScopes"]

    assert [scope["origin"] for scope in shown] == ["default", "config", "config"]
    # Mobile's keys now go to `common`, which lacks them; nothing in `mobile` is used.
    validate = run_cli("validate", "--json", cwd=root).envelope
    assert validate["data"]["missing"] == ["common:tabs.home", "common:title"]
    assert "mobile:title" in cleanup["data"]["keys"]


def test_without_scopes_the_apps_keys_look_missing_and_unused(tmp_path, run_cli):
    root = write_tree(tmp_path, MONOREPO)

    validate = run_cli("validate", "--json", cwd=root, env={"I18NPRUNE_NO_DISCOVERY": "1"}).envelope

    assert "translation:title" in validate["data"]["missing"]


@pytest.mark.slow
def test_a_scope_whose_namespace_has_no_file_is_a_warning(tmp_path, run_cli):
    root = write_tree(tmp_path, MONOREPO)
    config = json.loads((root / "i18nprune.config.json").read_text())
    config["locales"]["scopes"] = [{"src": "apps/mobile", "defaultNamespace": "phone"}]
    write_tree(root, {"i18nprune.config.json": config})

    issues = run_cli("validate", "--json", cwd=root).envelope["issues"]

    warning = next(
        i
        for i in issues
        if i["code"] == "i18nprune.project.default_namespace_missing" and "phone" in i["message"]
    )
    assert warning["path"] == "apps/mobile"


def test_a_scope_without_a_namespace_is_a_config_error(tmp_path, run_cli):
    root = write_tree(tmp_path, MONOREPO)
    config = json.loads((root / "i18nprune.config.json").read_text())
    config["locales"]["scopes"] = [{"src": "apps/mobile", "defaultNamespace": " "}]
    write_tree(root, {"i18nprune.config.json": config})

    result = run_cli("validate", "--json", cwd=root)

    assert result.code == 1
    assert result.envelope["issues"][0]["code"] == "i18nprune.config.invalid"
    assert "locales.scopes" in result.envelope["issues"][0]["message"]


# (set-up file, its text, (default, fallbacks) read from it; None: nothing static)
SETUPS = [
    ("src/i18n.ts", "i18next.init({ defaultNS: 'app' })", ("app", [])),
    (
        "src/i18n.ts",
        'i18next.use(x).init({\n  defaultNS: "web",\n  fallbackNS: "common"\n})',
        ("web", ["common"]),
    ),
    (
        "src/i18n/config.ts",
        "createInstance({ defaultNS: ['main', 'b'], fallbackNS: ['x', 'y'] })",
        ("main", ["x", "y"]),
    ),
    (
        "next-i18next.config.js",
        "module.exports = { i18n: {}, defaultNS: 'common' }",
        ("common", []),
    ),
    (
        "electron/i18next.config.ts",
        "init({ ns: ['app'], defaultNS: 'app', fallbackNS: false })",
        ("app", []),
    ),
    ("src/i18n.ts", "init({ defaultNS: DEFAULT_NS })", None),
    ("src/i18n.ts", "init({ lng: 'en' })", None),
    ("src/setup/anything.ts", "init({ defaultNS: 'app' })", None),  # not where apps keep it
]


@pytest.mark.parametrize(("file", "text", "expected"), SETUPS)
def test_setup_files_are_read_statically(tmp_path: Path, file, text, expected):
    write_tree(tmp_path, {file: text + "\n"})

    found = read_setup(tmp_path, ".")

    assert (None if found is None else (found.default_namespace, found.fallback_namespaces)) == (
        expected
    )


def test_an_app_folder_is_the_nearest_package_above_its_source(tmp_path: Path):
    write_tree(
        tmp_path,
        {
            "packages/ui/package.json": "{}",
            "packages/ui/lib/i18n.ts": "init({ defaultNS: 'ui' })\n",
            "node_modules/x/package.json": "{}",
        },
    )

    found = discovered_setups(tmp_path, ["packages/ui/lib/components"])

    assert [(setup.folder, setup.default_namespace) for setup in found] == [("packages/ui", "ui")]


# rage/secret-project-331's shape: services sharing one locale tree, each declaring its own
# namespace to TypeScript (`types/i18next.d.ts`) while its runtime set-up computes the value.
DECLARED = {
    ".git/HEAD": "ref: refs/heads/main\n",
    "i18nprune.config.json": {
        "src": ["services/cms/src", "services/main-frontend/src"],
        "locales": {
            "directory": "shared-module/src/locales",
            "mode": "locale_directory",
            "structure": "locale_per_dir",
            "namespaces": "file",
        },
    },
    "services/cms/package.json": {"name": "cms"},
    "services/main-frontend/package.json": {"name": "main-frontend"},
    "services/cms/types/i18next.d.ts": (
        'import "i18next"\n\ndeclare module "i18next" {\n  interface CustomTypeOptions {\n'
        '    defaultNS: "cms"\n    fallbackNS: "shared-module"\n'
        "    allowObjectInHTMLChildren: true\n  }\n}\n"
    ),
    "services/main-frontend/types/i18next.d.ts": (
        'declare module "i18next" {\n  interface CustomTypeOptions {\n'
        '    defaultNS: "main-frontend"\n    fallbackNS: ["shared-module"]\n  }\n}\n'
    ),
    "services/cms/src/shared-module/i18n.ts": (
        "import i18n from 'i18next';\nexport const init = (ownNamespace: string) =>\n"
        "  i18n.init({ defaultNS: ownNamespace, fallbackNS: SHARED });\n"
    ),
    "services/cms/src/Editor.tsx": HOOK
    + "export const Editor = () => { const { t } = useTranslation(); "
    "return [t('save-page'), t('loading')]; };\n",
    "services/main-frontend/src/Home.tsx": HOOK
    + "export const Home = () => { const { t } = useTranslation(); "
    "return [t('courses'), t('loading')]; };\n",
    "shared-module/src/locales/en/cms.json": {"save-page": "Save", "old-editor": "Old"},
    "shared-module/src/locales/en/main-frontend.json": {"courses": "Courses", "save-page": "x"},
    "shared-module/src/locales/en/shared-module.json": {"loading": "Loading", "unused": "U"},
}


@pytest.mark.slow
def test_an_apps_typescript_declaration_names_its_namespace(tmp_path, run_cli):
    root = write_tree(tmp_path, DECLARED)

    cleanup = run_cli("cleanup", "--dry-run", "--json", cwd=root).envelope
    validate = run_cli("validate", "--json", cwd=root).envelope
    shown = run_cli("config", "--json", cwd=root).envelope

    assert cleanup["ok"] is True, cleanup["issues"]
    assert cleanup["data"]["keys"] == [
        "cms:old-editor",
        "main-frontend:save-page",
        "shared-module:unused",
    ]
    assert validate["data"]["missing"] == []
    scopes = {scope["src"]: scope for scope in shown["data"]["config"]["locales"]["scopes"]}
    assert scopes["services/cms"]["defaultNamespace"] == "cms"
    assert scopes["services/main-frontend"]["fallbackNamespaces"] == ["shared-module"]


# rage/secret-project-331's layout: the package that holds the locale tree is three levels down
# (`shared-module/packages/common`) and declares its own namespace, which its components use.
SHARED_PACKAGE = {
    ".git/HEAD": "ref: refs/heads/main\n",
    "i18nprune.config.json": {
        "src": ["services", "shared-module"],
        "locales": {
            "directory": "shared-module/packages/common/src/locales",
            "mode": "locale_directory",
            "structure": "locale_per_dir",
            "namespaces": "file",
        },
    },
    "package.json": {"name": "root", "private": True},
    "shared-module/package.json": {"name": "shared-module-root", "private": True},
    "shared-module/packages/common/package.json": {"dependencies": {"react-i18next": "15"}},
    "shared-module/packages/common/types/i18next.d.ts": (
        'declare module "i18next" {\n  interface CustomTypeOptions {\n'
        '    defaultNS: "shared-module"\n  }\n}\n'
    ),
    "shared-module/packages/common/src/ErrorBoundary.tsx": HOOK
    + "export const Boundary = () => { const { t } = useTranslation(); "
    "return [t('error-title'), t('reload')]; };\n",
    "services/tmc/package.json": {"name": "tmc"},
    "services/tmc/types/i18next.d.ts": (
        'declare module "i18next" {\n  interface CustomTypeOptions {\n'
        '    defaultNS: "tmc"\n    fallbackNS: "shared-module"\n  }\n}\n'
    ),
    "services/tmc/src/Run.tsx": (
        HOOK + "export const Run = () => { const { t } = useTranslation(); "
        "return [t('run'), t('reload')]; };\n"
    ),
    "shared-module/packages/common/src/locales/en/tmc.json": {"run": "Run", "old": "Old"},
    "shared-module/packages/common/src/locales/en/shared-module.json": {
        "error-title": "Something went wrong",
        "reload": "Reload",
        "unused": "Unused",
    },
}


@pytest.mark.slow
def test_a_shared_package_three_levels_down_gets_the_namespace_it_declares(tmp_path, run_cli):
    root = write_tree(tmp_path, SHARED_PACKAGE)

    cleanup = run_cli("cleanup", "--dry-run", "--json", cwd=root).envelope
    validate = run_cli("validate", "--json", cwd=root).envelope

    assert validate["data"]["missing"] == []
    assert cleanup["ok"] is True, cleanup["issues"]
    assert cleanup["data"]["keys"] == ["shared-module:unused", "tmc:old"]


@pytest.mark.slow
def test_a_scope_added_to_the_config_is_applied_by_the_next_cached_run(tmp_path, run_cli):
    # The saved linking (the cached scan's output) was computed without the scope: reusing it
    # would leave the shared package's keys in the project's default namespace.
    tree = json.loads(json.dumps(SHARED_PACKAGE))
    tree["shared-module/packages/common/types/i18next.d.ts"] = "export {};\n"
    tree["services/tmc/types/i18next.d.ts"] = "export {};\n"
    root = write_tree(tmp_path, tree)
    before = run_cli("validate", "--json", cwd=root).envelope
    config = root / "i18nprune.config.json"
    settings = json.loads(config.read_text())
    settings["locales"]["scopes"] = [
        {"src": "shared-module/packages/common", "defaultNamespace": "shared-module"},
        {"src": "services/tmc", "defaultNamespace": "tmc", "fallbackNamespaces": ["shared-module"]},
    ]
    config.write_text(json.dumps(settings))

    after = run_cli("validate", "--json", cwd=root).envelope
    fresh = run_cli("validate", "--json", "--no-cache", cwd=root).envelope

    assert "translation:reload" in before["data"]["missing"]
    assert after["data"]["missing"] == fresh["data"]["missing"] == []
