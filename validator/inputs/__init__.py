"""Everything read from the organizer and the players: entries (the long table every reader
returns), the lexicon of words readers recognise, player ids; submitted decks (``decks/``)
and registered deck lists (``registrations/``)."""
