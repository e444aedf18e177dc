"""The best action at a five-card stud decision, with the betting to come, against opponents described
as data.

Modules, lowest first: :mod:`~exactodds.stud.decide.models` (opponent models read from TOML, the
shipped presets), :mod:`~exactodds.stud.decide.strength` (the strength measure a model may read),
:mod:`~exactodds.stud.decide.reading` (what a seat reads from its cards, for many deals at once),
:mod:`~exactodds.stud.decide.policy` (a model's action probabilities), :mod:`~exactodds.stud.engine.view`
(the hand as one player sees it), :mod:`~exactodds.stud.decide.belief` (Bayes over the opponents' hole
cards), :mod:`~exactodds.stud.decide.walk` (the rest of the hand walked over deals),
:mod:`~exactodds.stud.decide.result` and :mod:`~exactodds.stud.decide.api` (``decide_hand`` and
``decide_position``).
"""
