"""Ottocento's computer players (the shared search, worlds and solver are in ``tarocchi.bots``)."""
