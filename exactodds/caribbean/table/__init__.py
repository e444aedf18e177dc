"""The Caribbean Stud table: play the game with an exact-odds coach.

* :mod:`.game`: one table session as a state machine (the online table flow, the 20-hand home session);
  :mod:`.hand`: its phases and the hand in play; :mod:`.limits`: table limits and their errors;
* :mod:`.forms`: the session's JSON forms (the player's view, the stored state);
* :mod:`.records`: one recorded hand; :mod:`.coach`: the exact EVs of a decision and the session's odds;
* :mod:`.store`: SQLite persistence, one transaction per action; :mod:`.service`: sessions kept in a store
  (a bounded in-memory cache, idempotent retries);
* :mod:`.server`: the HTTP API and the page (``static/``), served by ``exactodds caribbean table``
  on the shared web layer (:mod:`exactodds.web`: the guard, bodies, idempotency, the SQLite store's
  conventions, serving); :mod:`.odds_worker` and :mod:`.card_worker`: the exact session odds and the
  strategy cards, each found by a background worker.
"""
