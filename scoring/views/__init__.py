"""Pages of a club night: sessions, tables, games, deal entry and corrections, the live
scoreboard, settle-up and CSV export. Every write goes through a service of
scoring (``nights``, ``games``, ``deals``, ``undo``, the pool's ``moves``, ``submission_confirm``),
every read through the selectors; a service's refusal is shown on the page with its message.
``scoring/page_urls.py`` routes to the modules."""
