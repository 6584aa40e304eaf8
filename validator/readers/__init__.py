"""Readers: deck files, ydke links, text lists and registration spreadsheets."""
