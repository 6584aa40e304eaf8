"""The engine: names and passcodes resolved to cards, then every rule of ``rules/`` run over
one long table of deck rows in one pass (``check``)."""
