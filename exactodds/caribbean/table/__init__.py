"""The Caribbean Stud table: play the game with an exact-odds coach.

* :mod:`.game`: one table session as a state machine (the online table flow, the 20-hand home session);
* :mod:`.records`: one recorded hand; :mod:`.coach`: the exact EVs of a decision and the session's odds;
* :mod:`.store`: SQLite persistence, one transaction per action; :mod:`.service`: sessions kept in a store;
* :mod:`.server`: the HTTP API and the page (``static/``), served by ``exactodds caribbean table``.
"""
