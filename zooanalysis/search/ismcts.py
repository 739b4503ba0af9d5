"""Single-observer information-set Monte Carlo tree search (SO-ISMCTS) on a forward model.

Cowling, Powley and Whitehouse (2012): one tree of the searching player's (the observer's)
view of the game. Every iteration

1. *determinises*: deals the cards the observer has not seen afresh (``determinise``), so the
   iteration plays in one world the observer cannot tell from the real one; with modelled
   opponents, redrawn (up to :data:`WORLD_TRIES` times) until the forward model finds it
   ``consistent`` with what they were seen to do (rejection sampling of the belief);
2. *selects* down the tree by UCT among the observer's actions legal in that world (a
   child's exploration term counts the iterations in which it was available, not its
   parent's visits). Another seat either plays its own strategy (``modelled[seat]``, the
   *opponent model*: its choice, as the observer sees it, is the tree's edge) or chooses by
   UCT for itself like the observer (plain SO-ISMCTS); a child's reward is the win share of
   the seat that chose it;
3. *expands* one new node: an untried action chosen uniformly, or a modelled choice not
   seen before;
4. *plays out* to the end with each seat's strategy ``codes[seat]``;
5. *backs up* every seat's win share along the path.

With every other seat modelled by its real strategy, the search is a sampled best response
to the others' strategies (it knows how they play, never their cards): an exploitability
probe. Without, it assumes nothing about them but its play-out policy.

After the budget (``iterations``) the most visited root action is played (ties: the better
mean, then the first created). The tree's actions are the forward model's
``search_actions``: other players' hidden choices (which face-down card) are one action whose
detail is drawn at random, so the tree is of what the observer can see.

The search is written once (:func:`_search_loop`) and compiled per forward model, which it
calls as the globals ``fm_*`` of a small generated module
(``zooanalysis.compiled.compiled_variant``: numba cannot cache a function that takes other
compiled functions as arguments), cached on disk like every kernel.
"""

from __future__ import annotations

import math

import numpy as np

from zooanalysis.rng import below

MAX_ACTIONS = 64
"""Most actions one decision may offer the search (the forward model keeps within it)."""
WORLD_TRIES = 64
"""Determinisations drawn per iteration until one is ``consistent`` with the modelled
players' last choice (rejection sampling); the last is used if none is."""

fm_actor = fm_is_over = fm_determinise = fm_search_actions = None
fm_apply_action = fm_play_out = fm_returns = fm_model_step = fm_consistent = None
"""The forward model's functions: bound by each generated module, never here."""

FORWARD_MODEL = {
    "fm_actor": "actor",
    "fm_is_over": "is_over",
    "fm_determinise": "determinise",
    "fm_search_actions": "search_actions",
    "fm_apply_action": "apply_action",
    "fm_play_out": "play_out",
    "fm_returns": "returns",
    "fm_model_step": "model_step",
    "fm_consistent": "consistent",
}
"""The search loop's global for each function of the forward model."""
_LOOPS: dict[str, object] = {}


def compiled_search(module: str):
    """The compiled search loop for the forward model ``module`` (a module name), generated
    and imported on first use in this process (``zooanalysis.compiled.compiled_variant``:
    once, threads asking at the same time wait for the first)."""
    loop = _LOOPS.get(module)
    if loop is None:
        from zooanalysis.compiled import compiled_variant

        bindings = {name: (module, function) for name, function in FORWARD_MODEL.items()}
        loop = compiled_variant(_search_loop, bindings, "search", "ismcts",
                                f"the search loop for the forward model {module}")
        _LOOPS[module] = loop
    return loop


def search(
    module: str,
    rules: np.ndarray,
    state: np.ndarray,
    observer: int,
    iterations: int,
    exploration: float,
    codes: np.ndarray,
    params: np.ndarray,
    modelled: np.ndarray,
    work: np.ndarray,
    stream: np.ndarray,
    root_actions: np.ndarray | None = None,
    root_visits: np.ndarray | None = None,
) -> tuple[int, int]:
    """The action the observer should take in ``state`` after ``iterations`` of SO-ISMCTS
    on the forward model ``module``, and how many root actions there were.

    ``state`` may hold anything in the places the observer cannot see: the search reads them
    only through ``determinise``. ``codes``/``params``: each seat's rollout strategy.
    ``root_actions``/``root_visits`` (``MAX_ACTIONS`` long), if given, receive the root's
    actions and visit counts. Draws from ``stream`` only.
    """
    loop = compiled_search(module)
    if root_actions is None:
        root_actions = np.zeros(MAX_ACTIONS, dtype=np.int64)
    if root_visits is None:
        root_visits = np.zeros(MAX_ACTIONS, dtype=np.float64)
    action, n = loop(
        rules, state, np.int64(observer), np.int64(iterations), np.float64(exploration),
        codes, params, modelled.astype(np.bool_), work, stream, root_actions, root_visits,
    )
    return int(action), int(n)


def _search_loop(
    rules, root, observer, iterations, exploration, codes, params, modelled, work, stream,
    root_actions, root_visits,
):
    """SO-ISMCTS from ``root`` for ``observer`` (see the module docstring); returns (the
    chosen action, the number of root actions) and fills ``root_actions``/``root_visits``."""
    players = codes.shape[0]
    size = root.shape[0]
    acts = np.empty(MAX_ACTIONS, dtype=np.int64)
    n_root = fm_search_actions(rules, root, observer, acts)
    root_visits[:] = 0.0
    for j in range(n_root):
        root_actions[j] = acts[j]
    if n_root == 1 or iterations <= 0:
        return acts[0], n_root
    max_nodes = iterations + 1
    parent = np.full(max_nodes, -1, dtype=np.int64)
    first_child = np.full(max_nodes, -1, dtype=np.int64)
    sibling = np.full(max_nodes, -1, dtype=np.int64)
    action = np.zeros(max_nodes, dtype=np.int64)
    mover = np.zeros(max_nodes, dtype=np.int64)
    visits = np.zeros(max_nodes, dtype=np.float64)
    available = np.zeros(max_nodes, dtype=np.float64)
    reward = np.zeros(max_nodes, dtype=np.float64)
    nodes = 1
    world = np.empty(size, dtype=np.int64)
    scratch = np.empty(size, dtype=np.int64)
    found = np.empty(MAX_ACTIONS, dtype=np.int64)
    shares = np.zeros(players, dtype=np.float64)
    for _ in range(iterations):
        for _ in range(WORLD_TRIES):
            fm_determinise(rules, root, observer, stream, world, scratch)
            if fm_consistent(rules, world, observer, codes, params, modelled, stream, work):
                break
        node = 0
        expanded = False
        while not expanded and not fm_is_over(world):
            seat = fm_actor(world)
            if seat != observer and modelled[seat]:
                taken = fm_model_step(rules, world, codes, params, stream, work)
                child = first_child[node]
                while child >= 0 and action[child] != taken:
                    child = sibling[child]
                if child < 0:
                    if nodes >= max_nodes:
                        break
                    child = nodes
                    nodes += 1
                    parent[child] = node
                    action[child] = taken
                    mover[child] = seat
                    sibling[child] = first_child[node]
                    first_child[node] = child
                    expanded = True
                node = child
                continue
            n = fm_search_actions(rules, world, observer, acts)
            untried = 0
            for j in range(n):
                found[j] = -1
                child = first_child[node]
                while child >= 0:
                    if action[child] == acts[j]:
                        found[j] = child
                        break
                    child = sibling[child]
                if found[j] < 0:
                    untried += 1
                else:
                    available[found[j]] += 1.0
            if untried > 0 and nodes < max_nodes:
                pick = below(stream, untried)
                chosen = acts[0]
                for j in range(n):
                    if found[j] < 0:
                        if pick == 0:
                            chosen = acts[j]
                            break
                        pick -= 1
                new = nodes
                nodes += 1
                parent[new] = node
                action[new] = chosen
                mover[new] = seat
                sibling[new] = first_child[node]
                first_child[node] = new
                available[new] = 1.0
                fm_apply_action(rules, world, chosen, stream)
                node = new
                expanded = True
            else:
                best = -1
                best_score = -1e300
                for j in range(n):
                    child = found[j]
                    if child < 0:
                        continue
                    score = reward[child] / visits[child] + exploration * math.sqrt(
                        math.log(available[child]) / visits[child]
                    )
                    if score > best_score:
                        best_score = score
                        best = child
                if best < 0:
                    break
                fm_apply_action(rules, world, action[best], stream)
                node = best
        if not fm_is_over(world):
            fm_play_out(rules, world, codes, params, stream, work)
        fm_returns(rules, world, shares)
        while node > 0:
            visits[node] += 1.0
            reward[node] += shares[mover[node]]
            node = parent[node]
        visits[0] += 1.0
    best_action = acts[0]
    best_visits = -1.0
    best_mean = -1.0
    for j in range(n_root):
        child = first_child[0]
        while child >= 0:
            if action[child] == root_actions[j]:
                break
            child = sibling[child]
        if child < 0:
            continue
        root_visits[j] = visits[child]
        mean = reward[child] / visits[child]
        if visits[child] > best_visits or (visits[child] == best_visits and mean > best_mean):
            best_visits = visits[child]
            best_mean = mean
            best_action = action[child]
    return best_action, n_root
