"""What the evidence proves: plural forms (v3 and v4), subtrees, keys named as data, dynamic
prefixes per namespace, and the gates that stop removal on incomplete evidence."""

from __future__ import annotations

from typing import NamedTuple

import pytest

from i18nprune.config.schema import PreservePolicy
from i18nprune.envelope import Code, warning
from i18nprune.keys import KeySyntax
from i18nprune.locales.leaves import Leaf
from i18nprune.locales.view import LocaleView
from i18nprune.reference import (
    Evidence,
    KeyReference,
    NamingMessage,
    follow_messages,
    literal_candidates,
    plural_base,
    referenced_paths,
    removal_gate,
    spare_named,
    unprotected_dynamic_sites,
    unused_keys,
    unused_paths,
)
from i18nprune.scan import DynamicSite, KeyObservation, LiteralSite, ScanResult
from i18nprune.scan.literals import keyed_by_hash

NAMESPACED = KeySyntax(namespaces=frozenset({"translation", "auth", "common"}))
NESTED = KeySyntax()
FLAT = KeySyntax(key_separator=None, ns_separator=None)


def scan(
    observations: list[KeyObservation] | None = None,
    dynamic: list[DynamicSite] | None = None,
    literals: list[LiteralSite] | None = None,
    issues: list | None = None,
) -> ScanResult:
    return ScanResult(
        files=1,
        parsed=1,
        cache_hits=0,
        observations=observations or [],
        dynamic=dynamic or [],
        issues=issues or [],
        literals=literals or [],
    )


def use(key: str, namespace: str | None = None, **options: object) -> KeyObservation:
    return KeyObservation(key, "src/a.ts", 1, 1, namespace=namespace, **options)  # type: ignore[arg-type]


def dynamic(prefix: str | None, namespace: str | None = None, suffix: str = "") -> DynamicSite:
    return DynamicSite(
        "src/a.ts", 2, 1, "template_interpolation", "t(`…`)", prefix, namespace, suffix=suffix
    )


@pytest.mark.parametrize(
    ("path", "base"),
    [
        ("cart.items_one", "cart.items"),
        ("cart.items_other", "cart.items"),
        ("cart.items_ordinal_few", "cart.items"),
        ("cart.items_plural", "cart.items"),  # i18next v3
        ("cart.items_0", "cart.items"),  # v3 multi-form languages
        ("cart.items_5", "cart.items"),
        ("cart.items_6", None),
        ("cart.items", None),
        ("_one", None),
    ],
)
def test_plural_forms_of_v3_and_v4_belong_to_their_key(path: str, base: str | None) -> None:
    assert plural_base(path) == base


def test_v3_plural_forms_are_proven_and_satisfy_the_key() -> None:
    evidence = Evidence(scan([use("cart.items", plural=True)]), KeySyntax())
    reference = evidence.reference()

    assert reference.is_proven("cart.items_plural")
    assert reference.is_proven("cart.items_3")
    assert evidence.missing({None: ["cart.items_0", "cart.items_1"]}) == []


def test_return_objects_proves_the_whole_subtree_only() -> None:
    reference = KeyReference.from_scan(scan([use("steps", subtree=True)]), KeySyntax())

    assert reference.is_proven("steps.one.title")
    assert reference.is_proven("steps[2]")
    assert not reference.is_proven("stepsAfter")


def test_key_read_whole_is_present_when_something_lies_under_it() -> None:
    evidence = Evidence(scan([use("steps", subtree=True)]), KeySyntax())

    assert evidence.missing({None: ["steps.a"]}) == []
    assert [m.key for m in evidence.missing({None: ["other"]})] == ["steps"]


def test_quoted_text_keeps_the_key_and_its_plural_forms() -> None:
    literal = LiteralSite("labels.copyAsSvg", "src/actions.ts", 3, 12)
    reference = KeyReference.from_scan(scan([use("x")], literals=[literal]), KeySyntax())
    paths = ["labels.copyAsSvg", "labels.copyAsSvg_one", "labels.other"]

    assert unused_paths(paths, reference, PreservePolicy()) == ["labels.other"]
    assert referenced_paths(paths, reference) == {
        "labels.copyAsSvg": [literal],
        "labels.copyAsSvg_one": [literal],
    }


def test_a_quoted_path_from_the_top_of_the_file_names_a_key_below_the_root() -> None:
    literal = LiteralSite("ui.question.hot", "../template/sort.html", 24, 30)
    syntax = KeySyntax(root="ui")
    reference = KeyReference.from_scan(scan([use("x")], literals=[literal]), syntax)

    assert reference.literal_sites("question.hot") == [literal]
    assert unused_paths(["question.hot", "question.cold"], reference, PreservePolicy()) == [
        "question.cold"
    ]


def test_namespaced_literal_names_only_its_namespace() -> None:
    literal = LiteralSite("auth:title", "src/a.ts", 1, 1)
    evidence = Evidence(scan([use("x", "auth")], literals=[literal]), NAMESPACED)

    assert evidence.reference("auth").literal_sites("title") == [literal]
    assert evidence.reference("common").literal_sites("title") == []


def test_a_path_used_in_one_namespace_does_not_keep_it_in_another() -> None:
    evidence = Evidence(scan([use("title", "auth")]), NAMESPACED)

    assert evidence.reference("auth").is_proven("title")
    assert unused_paths(["title"], evidence.reference("common"), PreservePolicy()) == ["title"]


def test_key_of_unknown_namespace_is_proven_everywhere() -> None:
    evidence = Evidence(scan([use("title", None)]), NAMESPACED)

    assert evidence.reference("auth").is_proven("title")
    assert evidence.reference("common").is_proven("title")


def test_dynamic_site_protects_its_namespace_only() -> None:
    evidence = Evidence(
        scan([use("x")], [dynamic("", "auth"), dynamic("fields", "common")]), NAMESPACED
    )

    assert evidence.reference("auth").uncertain_prefix("anything.at.all") == ""
    assert evidence.reference("common").uncertain_prefix("fields.email") == "fields"
    assert evidence.reference("common").uncertain_prefix("other") is None
    assert evidence.reference("translation").prefixes == ()


def test_dynamic_site_without_static_part_protects_nothing() -> None:
    evidence = Evidence(scan([use("x")], [dynamic(None, "translation")]), NAMESPACED)

    assert evidence.reference("translation").prefixes == ()


def test_flat_keys_take_text_prefixes() -> None:
    syntax = KeySyntax(key_separator=None)
    reference = KeyReference.from_scan(scan([use("x")], [dynamic("Welcome back, ")]), syntax)

    assert reference.uncertain_prefix("Welcome back, friend") == "Welcome back, "
    assert reference.uncertain_prefix("Welcome") is None


def test_a_prefix_protects_the_keys_that_start_with_it_character_by_character() -> None:
    reference = KeyReference.from_scan(scan([use("x")], [dynamic("account.view_other_")]), NESTED)
    paths = ["account.view_other_followers", "account.view_other_followings", "account.posts"]

    assert reference.uncertain_prefix("account.view_other_followers") == "account.view_other_"
    assert reference.uncertain_prefix("account.posts") is None
    assert reference.uncertain_prefix("account") is None
    assert unused_paths(paths, reference, PreservePolicy()) == ["account.posts"]


def test_a_prefix_ending_a_segment_keeps_its_subtree_only() -> None:
    reference = KeyReference.from_scan(scan([use("x")], [dynamic("errors.")]), NESTED)

    assert reference.uncertain_prefix("errors.http.404") == "errors."
    assert reference.uncertain_prefix("errorsPage.title") is None
    assert reference.uncertain_prefix("errors") is None


def test_a_suffix_protects_the_keys_that_end_with_it_and_their_forms() -> None:
    reference = KeyReference.from_scan(scan([use("x")], [dynamic(None, suffix="Response")]), FLAT)
    paths = ["Avg. Response", "Response", "Avg. Response_other", "Response_male", "Ping"]

    assert reference.uncertain_suffix("Avg. Response") == "Response"
    assert reference.uncertain_suffix("Avg. Response_other") == "Response"  # a plural form
    assert reference.uncertain_suffix("Response_male") == "Response"  # a context form
    assert reference.uncertain_suffix("Responsive") is None
    assert reference.uncertain_prefix("Avg. Response") is None
    assert unused_paths(paths, reference, PreservePolicy()) == ["Ping"]


def test_a_suffix_site_protects_something_and_is_not_warned_about() -> None:
    suffix_only = dynamic(None, suffix=".title")
    result = scan([], [suffix_only])

    assert not KeyReference.from_scan(result, NESTED).proves_nothing
    assert unprotected_dynamic_sites(result) == []
    assert unprotected_dynamic_sites(scan([], [dynamic(None)])) == [dynamic(None)]


def test_a_suffix_of_any_namespace_protects_in_every_one() -> None:
    evidence = Evidence(
        scan([use("x")], [dynamic(None, None, ".hint"), dynamic(None, "auth", ".label")]),
        NAMESPACED,
    )

    assert evidence.reference("common").uncertain_suffix("form.email.hint") == ".hint"
    assert evidence.reference("auth").uncertain_suffix("form.email.label") == ".label"
    assert evidence.reference("common").uncertain_suffix("form.email.label") is None


def test_preserve_entries_may_name_a_namespace() -> None:
    evidence = Evidence(scan([use("x", "auth")]), NAMESPACED)
    preserve = PreservePolicy(copy_keys=["common:legal.terms"], copy_prefixes=["auth:legacy"])

    assert unused_paths(["legal.terms", "gone"], evidence.reference("common"), preserve) == ["gone"]
    assert unused_paths(["legacy.a", "gone"], evidence.reference("auth"), preserve) == ["gone"]


def test_nothing_is_unused_when_the_whole_scan_proves_nothing() -> None:
    evidence = Evidence(scan(), NAMESPACED)

    assert unused_paths(["a", "b"], evidence.reference("auth"), PreservePolicy()) == []


def test_an_empty_namespace_is_not_a_scan_that_proves_nothing() -> None:
    evidence = Evidence(scan([use("title", "auth")]), NAMESPACED)

    assert unused_paths(["a"], evidence.reference("common"), PreservePolicy()) == ["a"]


def test_removal_gate_names_unscanned_files_and_force_downgrades_it() -> None:
    parse_error = warning(Code.SCAN_PARSE_ERROR, "src/b.tsx:3:1: syntax error", "src/b.tsx")
    result = scan([use("x")], issues=[parse_error])

    refused = removal_gate("cleanup", result, force=False)
    forced = removal_gate("cleanup", result, force=True)

    assert refused is not None and refused.severity == "error" and refused.path == "src/b.tsx"
    assert forced is not None and forced.severity == "warning"
    assert removal_gate("cleanup", scan([use("x")]), force=False) is None


def test_a_custom_context_separator_forms_the_context_keys() -> None:
    observation = use("Current", context="replicas")
    evidence = Evidence(scan([observation]), KeySyntax(context_separator="//context:"))

    assert evidence.reference().is_proven("Current//context:replicas")
    assert not evidence.reference().is_proven("Current_replicas")
    assert evidence.missing({None: ["Current//context:replicas"]}) == []


def test_a_namespaced_subtree_head_keeps_the_subtree_of_its_namespace() -> None:
    dotted = KeySyntax(namespaces=frozenset({"dialog", "general"}), ns_separator=".")
    literal = LiteralSite("dialog.picker.description.", "src/Picker.svelte", 21, 27)
    evidence = Evidence(scan([use("x", "general")], literals=[literal]), dotted)

    assert evidence.reference("dialog").literal_sites("picker.description.ios") == [literal]
    assert evidence.reference("general").literal_sites("picker.description.ios") == []
    assert unused_paths(
        ["picker.description.ios", "picker.title"], evidence.reference("dialog"), PreservePolicy()
    ) == ["picker.title"]


def _view(namespace: str | None, *paths: str) -> LocaleView:
    leaves = {path: Leaf(path, "string", "x") for path in paths}
    return LocaleView("en", [], leaves, dict.fromkeys(paths, "en.json"), [], namespace)


def test_literal_candidates_name_paths_plural_keys_heads_and_their_namespaced_spellings() -> None:
    paths = ("a.b.c_one", "a.b.c_other", "a.d", "x_ordinal_few", "top", ".lead.dot", "a..b")
    flat = literal_candidates([_view(None, *paths)], KeySyntax())
    assert flat == keyed_by_hash({*paths, "a.b.c", "x", "x_ordinal", "a.", "a.b.", ".lead.", "a.."})
    spaced = literal_candidates(
        [_view("common", "a.b_one"), _view("admin", "z")],
        KeySyntax(namespaces=frozenset({"common", "admin"})),
    )
    assert spaced == keyed_by_hash(
        {"a.b_one", "a.b", "a.", "common:a.b_one", "common:a.b", "common:a.", "z", "admin:z"}
    )
    no_nesting = literal_candidates([_view(None, "a.b_one")], KeySyntax(key_separator=None))
    assert no_nesting == keyed_by_hash({"a.b_one", "a.b"})


# --- keys named inside messages (i18next nesting, vue-i18n links) -------------------------------


def _messages(namespace: str | None, texts: dict[str, str]) -> LocaleView:
    leaves = {path: Leaf(path, "string", text) for path, text in texts.items()}
    return LocaleView("en", [], leaves, dict.fromkeys(texts, "en.json"), [], namespace)


class MessageCase(NamedTuple):
    id: str
    texts: dict[str, str]
    kept: set[str]
    named: set[str]
    unresolved: frozenset[str] = frozenset()
    syntax: KeySyntax = KeySyntax()


MESSAGE_CASES = [
    MessageCase(
        "nesting",
        {"title": "Welcome to $t(brand.name)", "brand.name": "Acme", "brand.old": "Old"},
        {"title"},
        {"brand.name"},
    ),
    MessageCase(
        "nesting_with_count_option_names_the_plural_forms",
        {
            "cart": '$t(cart.items, {"count": {{count}} }) in your cart',
            "cart.items_one": "one item",
            "cart.items_other": "{{count}} items",
            "cart.itemsLeft": "left",
        },
        {"cart"},
        {"cart.items_one", "cart.items_other"},
    ),
    MessageCase(
        "nesting_with_a_literal_context",
        {
            "a": "$t(friend, {'context': 'male'})",
            "friend": "x",
            "friend_male": "y",
            "friend_f": "z",
        },
        {"a"},
        {"friend", "friend_male"},
    ),
    MessageCase(
        "nesting_with_an_interpolated_context_names_every_context",
        {"a": '$t(friend, {"context": "{{gender}}"})', "friend_male": "y", "friends": "z"},
        {"a"},
        {"friend_male"},
    ),
    MessageCase(
        "nesting_with_a_formatter",
        {"a": "$t(brand.name, uppercase)", "brand.name": "Acme"},
        {"a"},
        {"brand.name"},
    ),
    MessageCase(
        "nesting_in_a_plural_form",
        {
            "items_one": "one $t(unit)",
            "items_other": "{{count}} $t(units)",
            "unit": "u",
            "units": "v",
        },
        {"items_one", "items_other"},
        {"unit", "units"},
    ),
    MessageCase(
        "nesting_of_a_whole_object",
        {"steps": "$t(onboarding)", "onboarding.one": "1", "onboarding.two": "2", "onboard": "x"},
        {"steps"},
        {"onboarding.one", "onboarding.two"},
    ),
    MessageCase(
        "nesting_of_a_dynamic_key_names_what_lies_under_its_static_start",
        {"a": "$t(status.{{code}})", "status.ok": "OK", "status.fail": "No", "statusbar": "x"},
        {"a"},
        {"status.ok", "status.fail"},
    ),
    MessageCase(
        "nesting_of_a_fully_dynamic_key_names_nothing_and_is_not_missing",
        {"a": "$t({{key}})", "b": "x"},
        {"a"},
        set(),
    ),
    MessageCase(
        "nesting_inside_the_options_of_another",
        {"a": '$t(b, {"who": "$t(c)"})', "b": "{{who}}", "c": "me"},
        {"a"},
        {"b", "c"},
    ),
    MessageCase(
        "unclosed_nesting_names_nothing",
        {"a": "$t(b is not closed", "b": "x"},
        {"a"},
        set(),
    ),
    MessageCase(
        "linked_message",
        {"form.save": "@:common.save", "common.save": "Save", "common.cancel": "Cancel"},
        {"form.save"},
        {"common.save"},
    ),
    MessageCase(
        "linked_message_with_modifiers",
        {
            "a": "Please provide @.lower:message.homeAddress and @.upper:x.y @.capitalize:z",
            "message.homeAddress": "Home address",
            "x.y": "y",
            "z": "z",
        },
        {"a"},
        {"message.homeAddress", "x.y", "z"},
    ),
    MessageCase(
        "linked_key_in_braces_may_hold_any_character",
        {"a": "@:{'odd key!'} and @.lower:{'it\\'s'}", "odd key!": "x", "it's": "y"},
        {"a"},
        {"odd key!", "it's"},
    ),
    MessageCase(
        "linked_key_in_brackets_vue_i18n_8",
        {"a": "@:(common.save)!", "common.save": "Save"},
        {"a"},
        {"common.save"},
    ),
    MessageCase(
        "linked_key_followed_by_punctuation_is_read_as_both_versions_read_it",
        {
            "a": "Please provide @.lower:common.address. Or @:common.name!",
            "common.address": "x",
            "common.name": "n",
        },
        {"a"},
        {"common.address", "common.name"},
    ),
    MessageCase(
        "linked_key_from_a_parameter_names_nothing_and_is_not_missing",
        {"a": "Hello @:{name}", "name": "x"},
        {"a"},
        set(),
    ),
    MessageCase(
        "an_email_address_is_no_link",
        {"a": "Write to support@example.com", "example.com": "x"},
        {"a"},
        set(),
    ),
    MessageCase(
        "named_keys_are_followed_transitively",
        {"a": "$t(b)", "b": "@:c", "c": "$t(d)", "d": "end", "e": "$t(d)"},
        {"a"},
        {"b", "c", "d"},
    ),
    MessageCase(
        "a_cycle_ends_where_it_started",
        {"x": "$t(a)", "a": "$t(b)", "b": "$t(a) $t(x)"},
        {"x"},
        {"a", "b"},
    ),
    MessageCase(
        "a_key_named_only_by_messages_of_unkept_keys_is_not_named",
        {"old": "$t(older)", "older": "x", "used": "y"},
        {"used"},
        set(),
    ),
    MessageCase(
        "a_named_key_no_path_satisfies_is_unresolved",
        {"a": "$t(brand.nam) @:common.sav", "brand.name": "Acme"},
        {"a"},
        set(),
        frozenset({"brand.nam", "common.sav"}),
    ),
    MessageCase(
        "namespaces_off_drop_the_ns_head_as_i18next_does",
        {"a": "$t(common:brand.name)", "brand.name": "Acme"},
        {"a"},
        {"brand.name"},
    ),
    MessageCase(
        "flat_keys_name_no_subtree",
        {"a": "$t(Sign in)", "Sign in": "x", "Sign in.now": "y"},
        {"a"},
        {"Sign in"},
        syntax=KeySyntax(key_separator=None),
    ),
]


@pytest.mark.parametrize("case", MESSAGE_CASES, ids=[case.id for case in MESSAGE_CASES])
def test_messages_of_kept_keys_name_exactly_these_keys(case: MessageCase) -> None:
    found = follow_messages({None: case.kept}, [{None: _messages(None, case.texts)}], case.syntax)

    assert {path for _, path in found.named} == case.named
    assert {key for _, key in found.unresolved} == case.unresolved


def test_each_named_key_lists_the_messages_that_name_it() -> None:
    view = _messages(None, {"a": "$t(brand)", "b": "@:brand", "brand": "Acme", "c": "$t(brand)"})

    found = follow_messages({None: {"a", "b"}}, [{None: view}], KeySyntax())

    assert list(found.named) == [(None, "brand")]
    assert sorted(found.named[(None, "brand")]) == [
        NamingMessage("en", None, "a"),
        NamingMessage("en", None, "b"),
    ]


def test_a_nesting_names_its_namespace_by_head_or_option_else_its_own_else_any() -> None:
    auth = _messages(
        "auth",
        {
            "heading": "$t(common:brand) $t(save) $t(title, {'ns': 'errors'}) $t(cancel)",
            "save": "Save",
        },
    )
    common = _messages("common", {"brand": "Acme", "save": "x", "cancel": "Cancel", "title": "y"})
    errors = _messages("errors", {"title": "Oops", "cancel": "z"})
    syntax = KeySyntax(namespaces=frozenset({"auth", "common", "errors"}))

    found = follow_messages(
        {"auth": {"heading"}}, [{"auth": auth, "common": common, "errors": errors}], syntax
    )

    # `save` is in the message's own namespace; `cancel` is not, so any namespace that has it.
    assert set(found.named) == {
        ("common", "brand"),
        ("auth", "save"),
        ("errors", "title"),
        ("common", "cancel"),
        ("errors", "cancel"),
    }


def test_a_target_follows_its_own_messages_and_the_sources() -> None:
    source = _messages(None, {"title": "Welcome to $t(brand.name)", "brand.name": "Acme"})
    target = LocaleView(
        "fr",
        [],
        {
            "title": Leaf("title", "string", "Bienvenue chez $t(brand.nom)"),
            "brand.nom": Leaf("brand.nom", "string", "Acmé"),
            "brand.name": Leaf("brand.name", "string", "Acme"),
        },
        {},
        [],
    )

    found = follow_messages({None: {"title"}}, [{None: target}, {None: source}], KeySyntax())

    assert set(found.named) == {(None, "brand.nom"), (None, "brand.name")}


def test_removable_keys_named_by_kept_ones_are_spared_and_a_chain_of_removable_ones_is_not() -> (
    None
):
    view = _messages(
        None,
        {"title": "$t(brand)", "brand": "Acme", "banner": "$t(notice)", "notice": "Old"},
    )

    spared = spare_named(
        {None: {"brand", "banner", "notice"}}, {None: {"title"}}, [{None: view}], KeySyntax()
    )

    assert spared == {(None, "brand"): [NamingMessage("en", None, "title")]}


def test_unused_keys_of_a_locale_leave_out_what_the_used_keys_name() -> None:
    evidence = Evidence(scan([use("title")]), KeySyntax())
    view = _messages(
        None, {"title": "$t(brand)", "brand": "Acme", "old": "$t(older)", "older": "x"}
    )

    assert unused_keys({None: view}, evidence, PreservePolicy()) == {None: ["old", "older"]}
