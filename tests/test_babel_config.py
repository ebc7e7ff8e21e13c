"""Reading babel-plugin-react-intl-auto's options from a project's Babel config, statically:
each shape of config real apps write, and what a config that cannot be read leaves unknown."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from i18nprune.babel_config import message_id_scopes
from i18nprune.scan.message_ids import JsRegex, PluginOptions
from tests.conftest import write_tree

MANIFEST = {"name": "app", "devDependencies": {"babel-plugin-react-intl-auto": "^3.3.0"}}


class Shape(NamedTuple):
    id: str
    files: dict[str, Any]
    config: str
    options: dict[str, Any]


SHAPES = [
    Shape(
        "babelrc_json5_with_comments",
        {
            ".babelrc": "{\n  // ids from the path\n  plugins: [\n"
            "    ['react-intl-auto', { removePrefix: 'src/', filebase: false, }],\n  ],\n}\n"
        },
        ".babelrc",
        {"remove_prefix": "src/"},
    ),
    Shape(
        "babel_config_json_long_name",
        {
            "babel.config.json": {
                "presets": ["@babel/preset-react"],
                "plugins": [["babel-plugin-react-intl-auto", {"includeExportName": "all"}]],
            }
        },
        "babel.config.json",
        {"include_export_name": "all"},
    ),
    Shape(
        "plugin_named_without_options",
        {".babelrc.json": {"plugins": ["react-intl-auto"]}},
        ".babelrc.json",
        {},
    ),
    Shape(
        "package_json_babel_key",
        {
            "package.json": {
                **MANIFEST,
                "babel": {"plugins": [["react-intl-auto", {"useKey": True, "separator": "_"}]]},
            }
        },
        "package.json",
        {"use_key": True, "separator": "_"},
    ),
    Shape(
        "babel_config_js_object_literal",
        {
            "babel.config.js": "module.exports = {\n  presets: ['@babel/react'],\n  plugins: [\n"
            "    '@babel/plugin-proposal-class-properties',\n"
            "    ['react-intl-auto', { removePrefix: 'renderer/', filebase: false }],\n  ],\n"
            "  env: { production: { plugins: ['transform-react-remove-prop-types'] } },\n}\n"
        },
        "babel.config.js",
        {"remove_prefix": "renderer/"},
    ),
    Shape(
        "babel_config_js_function_returning_a_literal",
        {
            "babel.config.js": "module.exports = function (api) {\n  api.cache(true);\n"
            "  const plugins = [['react-intl-auto', { removePrefix: 'src', filebase: true }]];\n"
            "  return { presets: ['next/babel'], plugins };\n};\n"
        },
        "babel.config.js",
        {"remove_prefix": "src", "filebase": True},
    ),
    Shape(
        "config_function_with_conditions_for_other_plugins",
        {
            "babel.config.js": "module.exports = api => {\n"
            "  const isExtract = api.env('extract');\n"
            "  const plugins = [\n"
            "    ['styled-components', { ssr: true }],\n"
            "    ['react-intl-auto', { filebase: true, includeExportName: 'all' }],\n"
            "    isExtract && ['react-intl', { messagesDir: 'dist/locale/' }],\n"
            "  ].filter(Boolean);\n"
            "  if (isExtract) { plugins.push(['formatjs', {}]); }\n"
            "  return { plugins };\n};\n"
        },
        "babel.config.js",
        {"filebase": True, "include_export_name": "all"},
    ),
    Shape(
        "export_default_and_a_regex",
        {
            "babel.config.mjs": "export default {\n"
            "  plugins: [['react-intl-auto', { removePrefix: /src[\\\\/]app/u }]],\n};\n"
        },
        "babel.config.mjs",
        {"remove_prefix": JsRegex("src[\\\\/]app", "u")},
    ),
    Shape(
        "same_options_in_both_builds",
        {
            ".babelrc": {
                "env": {
                    "development": {"plugins": [["react-intl-auto", {"removePrefix": "src"}]]},
                    "production": {"plugins": [["react-intl-auto", {"removePrefix": "src"}]]},
                    "test": {"plugins": [["react-intl-auto", {"removePrefix": True}]]},
                }
            }
        },
        ".babelrc",
        {"remove_prefix": "src"},
    ),
    Shape(
        "file_relative_config_over_the_project_wide_one",
        {
            "babel.config.json": {"plugins": [["react-intl-auto", {"removePrefix": "src"}]]},
            "src/.babelrc": {"plugins": [["react-intl-auto", {"removePrefix": True}]]},
        },
        "src/.babelrc",
        {"remove_prefix": True},
    ),
]


def scan_root(tmp_path: Path, files: dict[str, Any]) -> Path:
    root = write_tree(tmp_path / "app", {"src/index.js": "", **files})
    return root.resolve()


@pytest.mark.parametrize("shape", SHAPES, ids=[shape.id for shape in SHAPES])
def test_options_are_read_from_the_config(tmp_path: Path, shape: Shape) -> None:
    root = scan_root(tmp_path, shape.files)

    (scope,) = message_id_scopes(root, [root / "src"])

    assert scope.folder == "src"
    assert scope.config == shape.config
    assert scope.problem is None
    assert scope.options == PluginOptions(relative_to=str(root), **shape.options)


def test_relative_to_is_resolved_from_where_babel_runs(tmp_path: Path) -> None:
    root = scan_root(
        tmp_path, {".babelrc": {"plugins": [["react-intl-auto", {"relativeTo": ".."}]]}}
    )

    (scope,) = message_id_scopes(root, [root / "src"])

    assert scope.options is not None
    assert scope.options.relative_to == str(root.parent)


UNREADABLE = [
    (
        "a_required_plugin_path",
        {
            "babel.config.js": "module.exports = {\n  plugins: [\n"
            "    [require.resolve('babel-plugin-react-intl-auto'), { removePrefix: 'src' }],\n"
            "  ],\n};\n"
        },
        "babel.config.js",
        "line 3",
    ),
    (
        "options_from_the_environment",
        {
            ".babelrc.js": "module.exports = {\n  plugins: [\n"
            "    ['react-intl-auto', { removePrefix: process.env.PREFIX }],\n  ],\n};\n"
        },
        ".babelrc.js",
        "process.env.PREFIX",
    ),
    (
        "a_config_function_that_branches",
        {
            "babel.config.js": "module.exports = (api) => {\n"
            "  if (api.env('test')) return { plugins: [] };\n"
            "  return { plugins: [['react-intl-auto', {}]] };\n};\n"
        },
        "babel.config.js",
        "line 2",
    ),
    (
        "options_that_differ_between_builds",
        {
            ".babelrc": {
                "env": {
                    "development": {"plugins": [["react-intl-auto", {"removePrefix": "src"}]]},
                    "production": {"plugins": [["react-intl-auto", {"removePrefix": True}]]},
                }
            }
        },
        ".babelrc",
        "differ",
    ),
    (
        "the_plugin_inside_overrides",
        {".babelrc": {"overrides": [{"test": "./src", "plugins": ["react-intl-auto"]}]}},
        ".babelrc",
        "overrides",
    ),
    (
        "only_a_dependency",
        {"package.json": MANIFEST, "webpack.config.js": "module.exports = require('./x');\n"},
        "package.json",
        "dependency",
    ),
    (
        "a_remove_prefix_with_groups",
        {".babelrc": {"plugins": [["react-intl-auto", {"removePrefix": "(src|lib)/"}]]}},
        ".babelrc",
        "removePrefix",
    ),
]


@pytest.mark.parametrize(
    ("files", "config", "said"),
    [case[1:] for case in UNREADABLE],
    ids=[case[0] for case in UNREADABLE],
)
def test_options_that_cannot_be_read_are_unknown(
    tmp_path: Path, files: dict[str, Any], config: str, said: str
) -> None:
    root = scan_root(tmp_path, files)

    (scope,) = message_id_scopes(root, [root / "src"])

    assert scope.options is None
    assert scope.config == config
    assert scope.problem is not None and said in scope.problem


NOT_USED = [
    ("no_babel_config", {"package.json": {"name": "app"}}),
    ("other_plugins_only", {".babelrc": {"plugins": ["react-intl"]}}),
    ("named_in_a_comment", {"babel.config.js": "// see react-intl-auto\nmodule.exports = {};\n"}),
    ("turned_off", {".babelrc": {"plugins": [["react-intl-auto", False]]}}),
    ("only_for_tests", {".babelrc": {"env": {"test": {"plugins": ["react-intl-auto"]}}}}),
]


@pytest.mark.parametrize(
    "files", [case[1] for case in NOT_USED], ids=[case[0] for case in NOT_USED]
)
def test_no_scope_where_the_plugin_does_not_run(tmp_path: Path, files: dict[str, Any]) -> None:
    root = scan_root(tmp_path, files)

    assert message_id_scopes(root, [root / "src"]) == []


def test_each_source_folder_has_its_packages_config(tmp_path: Path) -> None:
    root = scan_root(
        tmp_path,
        {
            "web/package.json": json.dumps({"name": "web"}),
            "web/.babelrc": {"plugins": [["react-intl-auto", {"removePrefix": "src/"}]]},
            "web/src/a.js": "",
            "admin/src/a.js": "",
        },
    )

    scopes = message_id_scopes(root, [root / "web/src", root / "admin/src"])

    assert [(s.folder, s.config) for s in scopes] == [("web/src", "web/.babelrc")]
    assert scopes[0].options == PluginOptions(relative_to=str(root / "web"), remove_prefix="src/")
