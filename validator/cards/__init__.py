"""Card data and what a check is made against: the card table (``db``), formats, Forbidden/
Limited lists, the local data store, downloads, the importers of each card source, and
``load``, which loads what a check needs."""
