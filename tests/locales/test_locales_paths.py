"""Leaf paths: splitting, joining and the segment-aligned `is_under`."""

from hypothesis import given
from hypothesis import strategies as st

from i18nprune.locales.paths import is_under, join_path, split_path


def test_split_path_reads_keys_and_indices() -> None:
    assert split_path("list[2].label") == ["list", 2, "label"]


def test_split_path_reads_consecutive_indices() -> None:
    assert split_path("grid[1][0].cell") == ["grid", 1, 0, "cell"]


def test_split_path_reads_an_index_at_the_root() -> None:
    assert split_path("[0].title") == [0, "title"]


def test_split_path_of_the_root_is_empty() -> None:
    assert split_path("") == []


def test_brackets_without_a_decimal_index_belong_to_the_key() -> None:
    assert split_path("a[b].c[2]x") == ["a[b]", "c[2]x"]


def test_join_path_writes_indices_in_brackets() -> None:
    assert join_path(["list", 2, "label"]) == "list[2].label"


def test_join_path_of_a_dotted_key_is_the_nested_path() -> None:
    assert join_path(["home.title"]) == join_path(["home", "title"]) == "home.title"


_KEY = st.text(st.characters(blacklist_characters=".[]"), min_size=1)


@given(st.lists(st.one_of(_KEY, st.integers(min_value=0)), max_size=6))
def test_split_path_inverts_join_path(parts: list[str | int]) -> None:
    assert split_path(join_path(parts)) == parts


def test_a_path_is_under_itself() -> None:
    assert is_under("home.title", "home.title")


def test_a_nested_path_is_under_its_prefix() -> None:
    assert is_under("errors.network.timeout", "errors")


def test_an_array_item_is_under_its_array() -> None:
    assert is_under("steps[3].label", "steps")


def test_a_sibling_sharing_the_prefix_text_is_not_under_it() -> None:
    assert not is_under("homepage.title", "home")


def test_a_shorter_path_is_not_under_a_longer_prefix() -> None:
    assert not is_under("home", "home.title")


def test_every_path_is_under_the_root() -> None:
    assert is_under("anything.at[0].all", "")
