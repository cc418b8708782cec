"""The rules engine: pure Python, no Django in any module of this package except the adapters.

The adapters only connect the engine to Django: ``apps`` (the app's registration),
``management`` (the command line) and ``web`` (HTTP)."""
