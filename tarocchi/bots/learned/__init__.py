"""Computers that learn (issue 43): a policy learned from a teacher's own play.

- ``selfplay``: the teacher (a level with its time limit off: search, or the expert) plays
  whole deals in every seat; each deal is written as one compact record (the deck, the dealer
  and every action in order), from which every decision's view (``Deal.view(seat)``) is rebuilt
  exactly;
- ``features``: a view, and each legal card of it, as numbers (one seat's knowledge alone); a
  view in the auction, and each word, likewise (``WordFeaturizer``);
- ``policy``: the model at the table, numpy only, and the ``learned`` level (``LearnedBot``);
- ``train``: fits a model to the records, the cards' or (``--phase speak``) the auction's (numpy
  too: no other library is needed to train).
"""
