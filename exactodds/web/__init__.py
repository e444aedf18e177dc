"""What the web tables share (the Caribbean Stud table, the five-card stud host): served on one layer.

* :mod:`.guard`: Host, Origin and Content-Type checks, a deadline on request headers;
* :mod:`.bodies`: JSON-only request bodies, capped in size and time;
* :mod:`.idempotency`: a retried request applied once;
* :mod:`.store`: the SQLite conventions (a 0600 file, migrations as data, one transaction per
  change, 503 on database trouble);
* :mod:`.app`: the Starlette app behind the guard, errors as one line of JSON;
* :mod:`.worker`: one background worker of keyed jobs, never inside a request;
* :mod:`.serving`: the socket (127.0.0.1 by default, a warning beyond), uvicorn until Ctrl-C.
"""
