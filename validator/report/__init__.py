"""The reports, as the organizer and the judges read them.

* ``model``: the judgement of a check or an event, made once (``judged_check``,
  ``judged_event``): what every report below and the web pages write;
* ``json``: the check and event reports (public JSON contracts), one encoder;
* ``text``: what the terminal shows for a check and for an event;
* ``xlsx``: the event workbook and the penalty log workbook (byte-stable);
* ``style``: writing cells safely (user text is never a formula) and the shared styles;
* ``penalty_log``: the penalty log as rows (web pages, CSV export, workbook).

Formatters never decide: they write the model, which holds what the engine and
``verdicts`` give.
"""
