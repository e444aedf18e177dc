"""Five-card stud in the browser: the home fixed-limit game hosted for 2 to 8 players, each on their
own phone or laptop, bots in the empty seats, the coach beside the buttons (``exactodds stud host``).

* :mod:`.config`: a game's set-up (seats, stacks, length, coach, clocks) and its checks;
* :mod:`.bots`: a bot seat's model (a name) and the action it takes;
* :mod:`.game`: one game as the server deals it: the evening (a
  :class:`~exactodds.stud.history.session.StudSession`), the seats and their links, the clocks;
  every rule is the engine's;
* :mod:`.views`: what each link sees (a hole card only by its own seat until the showdown);
* :mod:`.store`: SQLite, one transaction per action, a game read back by replaying its hands;
* :mod:`.service`: games kept in a store, one lock per game, idempotent retries;
* :mod:`.coach`: the coach's advice in plain words, found by a background worker;
* :mod:`.server`: the HTTP API, the live updates (server-sent events) and the pages (``static/``).
"""
