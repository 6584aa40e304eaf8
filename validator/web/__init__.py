"""The web app (``deckcheck serve``): pages for organizers and judges over the library."""
