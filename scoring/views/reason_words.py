"""Why an entry did not count, in the page's language: the words live beside the formats
(``scoring.formats.reason_words``), where the API's serializers read them too."""

from scoring.formats.reason_words import NAMED, SENTENCES, reason_words

__all__ = ["NAMED", "SENTENCES", "reason_words"]
