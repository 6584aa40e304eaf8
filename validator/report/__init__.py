"""The reports, as the organizer and the judges read them.

* ``json``: the check and event reports (public JSON contracts), one builder;
* ``text``: what the terminal shows for a check and for an event;
* ``xlsx``: the event workbook and the penalty log workbook (byte-stable);
* ``style``: writing cells safely (user text is never a formula) and the shared styles.

Formatters never decide: they write the verdicts the engine and ``verdicts`` give.
"""
