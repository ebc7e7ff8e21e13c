"""The near-twin rule: which key the code uses and which locale key are twins (a small edit apart),
and which locale key is nearest — table tests in the shapes of real apps' slips, and the pairs
the rule must not make."""

from __future__ import annotations

import pytest

from i18nprune.reference import plural_base
from i18nprune.twins import (
    EXTENDED,
    PLURAL,
    STYLE,
    TWO_TYPOS,
    TYPO,
    edit_distance,
    key_distance,
    nearest,
    words,
)

# (the code's key, the locale's key, key separator, how near) — each from a real app's slip or
# the shape of one.
TWINS = [
    # streamyfin: components/vlc/VideoDebugInfo.tsx
    ("player.subtitles_tracks", "player.subtitle_tracks", ".", PLURAL),
    # streamyfin: providers/DownloadProvider.tsx
    (
        "home.downloads.toasts.server_responded_with_status",
        "home.downloads.toasts.server_responded_with_status_code",
        ".",
        EXTENDED,
    ),
    # elk: PublishWidget.vue, AccountMoreButton.vue
    ("tooltip.emojis", "tooltip.emoji", ".", PLURAL),
    ("actions.more", "action.more", ".", PLURAL),
    # hoppscotch: ASAP.vue, useMockServer.ts
    ("config.saml.audience", "configs.saml.audience", ".", PLURAL),
    ("mock_server.server_started", "mock_server.mock_server_started", ".", EXTENDED),
    # headlamp: a <Trans> child with &nbsp; against the locale's plain space
    (
        "Vertical Pod Autoscaler is not enabled.\xa0<1>Learn More</1>",
        "Vertical Pod Autoscaler is not enabled. <1>Learn More</1>",
        None,
        STYLE,
    ),
    ("home.title", "home.titles", ".", PLURAL),
    ("settings.category", "settings.categories", ".", PLURAL),
    ("inbox.box_label", "inbox.boxes_label", ".", PLURAL),
    ("form.recieved", "form.received", ".", TYPO),
    ("settings.colour_scheme", "settings.color_scheme", ".", TYPO),
    ("settings.confgiuraton", "settings.configuration", ".", TWO_TYPOS),
    ("player.subtitleTracks", "player.subtitle_tracks", ".", STYLE),
    ("Are you sure?", "Are you sure", None, STYLE),
    ("Recieved {{count}} files", "Received {{count}} files", None, TYPO),
    ("campaigns.noSubs", "campaign.noSubs", None, PLURAL),  # flat keys holding dots
]

# Keys a small edit apart that are different keys.
NOT_TWINS = [
    ("page1.title", "page2.title", "."),  # numbered siblings
    ("steps.step1", "steps.step2", "."),
    ("steps.step10", "steps.step1", "."),
    ("item_card.no_data_available", "player.no_data_available", "."),  # another parent
    ("home.title", "settings.title", "."),
    ("actions.edit", "actions.exit", "."),  # a short word, one letter apart
    ("view.more", "view.mode", "."),
    ("form.name", "form.name_placeholder", "."),  # one word grown: too short to say
    ("settings.title", "settings.general.title", "."),  # another depth
    ("a.b.c", "a.x.y", "."),  # two segments differ
    ("user.a", "user.as", "."),  # a one-letter word
    ("home.title", "home.title", "."),  # the same key
    ("Save", "Close", None),
    # Natural-language keys are their own source text: another number, a second typo or one
    # word more is another text, whose translations would be wrong under the new key.
    ("Delete {{count}} items", "Delete {{count}} item", None),
    ("Delete document permanently", "Delete document", None),
    ("Confgiuraton saved", "Configuration saved", None),
    ("delete_user_success", "delete_team_failure", None),  # two words differ
]


@pytest.mark.parametrize(("code", "locale", "separator", "distance"), TWINS)
def test_real_slips_are_twins(code, locale, separator, distance):
    assert key_distance(code, locale, separator) == distance
    assert key_distance(locale, code, separator) == distance


@pytest.mark.parametrize(("code", "locale", "separator"), NOT_TWINS)
def test_different_keys_are_not_twins(code, locale, separator):
    assert key_distance(code, locale, separator) is None


@pytest.mark.parametrize(
    ("segment", "expected"),
    [
        ("subtitleTracks", ["subtitle", "tracks"]),
        ("server_responded-with status", ["server", "responded", "with", "status"]),
        ("Are you sure?", ["are", "you", "sure"]),
        ("HTTPError", ["httperror"]),
        ("step2Done", ["step2", "done"]),
    ],
)
def test_words_of_a_segment(segment, expected):
    assert words(segment) == expected


@pytest.mark.parametrize(
    ("a", "b", "limit", "expected"),
    [
        ("recieved", "received", 2, 1),  # two neighbours swapped
        ("color", "colour", 2, 1),
        ("configuration", "confgiuraton", 2, 2),
        ("kitten", "sitting", 2, 3),  # past the limit: limit + 1
        ("abc", "abcdef", 2, 3),
        ("same", "same", 2, 0),
    ],
)
def test_edit_distance_is_capped(a, b, limit, expected):
    assert edit_distance(a, b, limit) == expected


LOCALE = [
    "player.subtitle_tracks",
    "player.audio_tracks",
    "player.no_data_available",
    "cart.items_one",
    "cart.items_other",
    "home.title",
    "home.titles",
    "home.tile",
    "status.ok",
]


def test_nearest_names_the_one_nearest_key():
    found = nearest(["player.subtitles_tracks"], LOCALE, ".", plural_base)

    assert found == {"player.subtitles_tracks": (PLURAL, ["player.subtitle_tracks"])}


def test_a_plural_key_is_the_twin_of_its_forms():
    found = nearest(["cart.item"], LOCALE, ".", plural_base)

    assert found == {"cart.item": (PLURAL, ["cart.items"])}


def test_equally_near_keys_are_all_named():
    found = nearest(["home.titel", "home.titless", "home.titls"], LOCALE, ".", plural_base)

    assert found["home.titel"] == (TYPO, ["home.title"])  # `titles` is two edits away
    assert found["home.titless"] == (PLURAL, ["home.titles"])
    # One letter from `title` and one from `titles`: which one the code means is not clear.
    assert found["home.titls"] == (TYPO, ["home.title", "home.titles"])


def test_a_plural_is_nearer_than_a_word_more():
    found = nearest(
        ["toasts.server_status"],
        ["toasts.server_statuses", "toasts.server_status_code"],
        ".",
    )

    assert found == {"toasts.server_status": (PLURAL, ["toasts.server_statuses"])}


def test_keys_without_a_twin_are_left_out():
    assert nearest(["item_card.no_data_available", "status.okay"], LOCALE, ".") == {}


def test_flat_keys_are_one_segment():
    locale = ["Are you sure", "Delete {{count}} item", "Save", "Saved.", "campaigns.noSubs"]

    found = nearest(
        ["Are you sure?", "Delete {{count}} items", "Sav", "campaign.noSubs"], locale, None
    )

    assert found == {
        "Are you sure?": (STYLE, ["Are you sure"]),
        "campaign.noSubs": (PLURAL, ["campaigns.noSubs"]),
    }


def test_a_key_of_separators_only_has_no_twin_and_breaks_nothing():
    """A one-segment key with no words (`...`, seen at onlook's root) used to crash."""
    found = nearest(["...", "subtitleTracks"], ["subtitleTrack", "x"], None)
    assert found == {"subtitleTracks": (PLURAL, ["subtitleTrack"])}
