"""Names compared as people write them: the same name but for case, accents, punctuation or
spacing, the same words in another order, or one letter apart (a typo). Pure functions and a
small index, so that a thousand rows are matched against a roster of thousands at once."""

from __future__ import annotations

import re
import unicodedata
from collections import defaultdict
from collections.abc import Iterable

_NOT_WORD = re.compile(r"[\W_]+")
#: A name this long or longer is "similar" to one a letter apart (shorter names a letter apart,
#: Asha and Usha, are different people more often than typos).
SIMILAR_FROM = 5


def name_key(name: str) -> str:

    text = unicodedata.normalize("NFKD", name).casefold()
    text = "".join(char for char in text if not unicodedata.combining(char))
    return " ".join(_NOT_WORD.sub(" ", text).split())


def words_key(key: str) -> str:
    """A name key with its words in order: "rao arjun" and "arjun rao" are one."""
    return " ".join(sorted(key.split()))


def one_apart(first: str, second: str) -> bool:
    """Whether two different strings are one insertion, deletion or substitution apart."""
    if first == second or abs(len(first) - len(second)) > 1:
        return False
    if len(first) > len(second):
        first, second = second, first
    start = 0
    while start < len(first) and first[start] == second[start]:
        start += 1
    if len(first) == len(second):
        return first[start + 1 :] == second[start + 1 :]
    return first[start:] == second[start + 1 :]


def _deletions(key: str) -> set[str]:
    return {key} | {key[:i] + key[i + 1 :] for i in range(len(key))}


class NameIndex:
    """Names of a roster by their key, their words' key and their one-letter deletions, each to
    the ids of the players holding them."""

    def __init__(self, names: Iterable[tuple[int, str]]) -> None:
        self.by_key: dict[str, list[int]] = defaultdict(list)
        self.by_words: dict[str, list[int]] = defaultdict(list)
        self._by_deletion: dict[str, set[int]] = defaultdict(set)
        self._keys: dict[int, str] = {}
        for pk, name in names:
            key = name_key(name)
            self._keys[pk] = key
            self.by_key[key].append(pk)
            self.by_words[words_key(key)].append(pk)

    def same(self, key: str) -> list[int]:
        return list(self.by_key.get(key, ()))

    def reordered(self, key: str) -> list[int]:
        return [pk for pk in self.by_words.get(words_key(key), ()) if self._keys[pk] != key]

    def similar(self, key: str) -> list[int]:
        """The players whose name is one letter from ``key`` (not the same)."""
        if len(key) < SIMILAR_FROM:
            return []
        if not self._by_deletion:  # built on the first question: most rows never ask
            for pk, known in self._keys.items():
                if len(known) >= SIMILAR_FROM:
                    for deleted in _deletions(known):
                        self._by_deletion[deleted].add(pk)
        found: set[int] = set()
        for deleted in _deletions(key):
            found |= self._by_deletion.get(deleted, set())
        return sorted(pk for pk in found if one_apart(self._keys[pk], key))
