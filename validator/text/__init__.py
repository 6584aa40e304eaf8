"""Text shared by every stage: normalised name keys (``normalize``) and the one matcher of
the words readers recognise (``lexicon``)."""
