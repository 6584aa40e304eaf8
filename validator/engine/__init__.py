"""The engine: names and passcodes resolved to cards (``resolve``), the card attribute table
and the deck rows prepared (``tables``), every rule of ``rules/`` run over one long table of
deck rows in one pass (``check``), decks equal to their lists told by fingerprint
(``fingerprints``), and each deck's status with its violations located (``status``)."""
