"""From violations to what a judge decides and says: penalties and remedies by regulation,
verdicts per deck, the head judge's decisions, decks against their lists, the judge's deck
check at the table, and the infraction catalogue."""
