"""The rules engine over HTTP: the Django REST framework view of ``rules.evaluate`` and its URL.
The only part of ``rules`` besides ``apps`` and ``management`` that imports Django."""
