"""The rules engine: pure Python, no Django in its engine modules.

The Django parts of this app (``apps``, ``api``, ``serializers``, ``urls``, ``management``) only
adapt the engine to the command line and HTTP."""
