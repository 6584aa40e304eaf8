"""The event as a record: the whole-event run (``run``) and its durable store (``store``)."""
