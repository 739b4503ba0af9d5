"""Search players for games that expose a forward model.

A forward model is a module of numba functions over a flat ``int64`` state array and an
``int64`` rules array (Bluff in Zoo's: ``zooanalysis.games.bluff.forward``). The search needs:

* ``actor(state)``: the seat to decide, -1 once the game is over; ``is_over(state)``;
* ``copy_state(state, out)``;
* ``determinise(rules, state, observer, stream, out, scratch)``: a state the observer
  cannot tell from ``state``, its unseen cards dealt afresh from the game's ``stream``,
  computed from the observer's information only;
* ``consistent(rules, state, observer, codes, params, modelled, stream, work)``: whether a
  determinised world explains what the modelled seats were seen to do (rejection test);
* ``search_actions(rules, state, observer, out) -> n``: the actor's choices as the observer
  sees them (another player's hidden choice, such as which face-down card, is one action);
* ``apply_action(rules, state, action, stream)``: play one (a hidden part drawn at random);
* ``play_out(rules, state, codes, params, stream, work)``: play to the end with the game's
  built-in strategies (the rollout policy; ``work`` is the game's strategy scratch);
* ``model_step(rules, state, codes, params, stream, work) -> action``: the actor decides
  with its built-in strategy, the choice is applied and returned as the observer sees it;
* ``returns(rules, state, out)``: each seat's win share at the end.

:mod:`zooanalysis.search.ismcts` is single-observer information-set Monte Carlo tree search
on any such module; a game binds it to its forward model by module name.
:mod:`zooanalysis.search.player` is the ``search`` player built on it, for any game's
reference engine (the game supplies its strategies, forward model and reference batch).
"""
