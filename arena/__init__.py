"""Evaluation of bots: duplicate matches (``fh-eval``), tournaments with ratings, and splits.

* :mod:`arena.seating`: who sits where in each play of a duplicate deal, and each seat's seed;
* :mod:`arena.match`: bots played seat by seat on the engine (or in a user's AEC loop);
* :mod:`arena.batched`: the same deals and seatings as rows of the compiled core;
* :mod:`arena.duplicate`: :func:`arena.duplicate.duplicate`, one match of two bots;
* :mod:`arena.paired`: two bots compared through a common opponent, on the same deals;
* :mod:`arena.tournament`: every pair of several bots, rated;
* :mod:`arena.split`: which part of a bot's play (calls, leads, follows) makes its difference;
* :mod:`arena.stats` and :mod:`arena.results`: intervals, and what a match reports;
* :mod:`arena.cli`: the ``fh-eval`` command line.

Players live in :mod:`agents`; this package only seats and scores them.
"""
