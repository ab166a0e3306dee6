"""A conditional logit fitted by Newton's method: the chance that candidate `c` of a choice is the one chosen is
proportional to exp(weights · terms[c]).

Two fits stand on it: which card of a hand a player picks (`benchmarks.imitation`), and which player of a
table wins the game from the sheets at a round's end (`benchmarks.round_value`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

#: Pulls the weights towards 0 a little, so that terms that never differ (or always move together) leave a
#: solvable system.
RIDGE = 1e-3

#: One observed choice: every candidate's terms, and the index of the one chosen.
Choice = tuple[Sequence[Sequence[float]], int]


def arrays(choices: Sequence[Choice]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(terms, present, chosen): the choices padded to the widest, `present` marking the real candidates."""
    width = max(len(candidates) for candidates, _ in choices)
    k = len(choices[0][0][0])
    terms = np.zeros((len(choices), width, k))
    present = np.zeros((len(choices), width), dtype=bool)
    chosen = np.zeros(len(choices), dtype=int)
    for i, (candidates, picked) in enumerate(choices):
        terms[i, :len(candidates)] = candidates
        present[i, :len(candidates)] = True
        chosen[i] = picked
    return terms, present, chosen


def chances(terms: np.ndarray, present: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Each candidate's chance of being chosen under `weights`."""
    scores = np.where(present, terms @ weights, -np.inf)
    scores -= scores.max(axis=1, keepdims=True)
    chance = np.exp(scores)
    return chance / chance.sum(axis=1, keepdims=True)


def fit(choices: Sequence[Choice], iterations: int = 30, ridge: float = RIDGE) -> np.ndarray:
    """The weights of highest likelihood (with a small ridge)."""
    terms, present, chosen = arrays(choices)
    n, k = terms.shape[0], terms.shape[2]
    weights = np.zeros(k)
    rows = np.arange(n)
    for _ in range(iterations):
        chance = chances(terms, present, weights)
        expected = np.einsum("nc,nck->nk", chance, terms)
        gradient = (terms[rows, chosen] - expected).sum(axis=0) - ridge * n * weights
        second = np.einsum("nc,nck,ncl->kl", chance, terms, terms) - np.einsum("nk,nl->kl", expected, expected)
        step = np.linalg.solve(second + ridge * n * np.eye(k), gradient)
        weights += step
        if np.abs(step).max() < 1e-9:
            break
    return weights


def mean_log_likelihood(choices: Sequence[Choice], weights: Sequence[float]) -> float:
    """The mean log chance `weights` gave the candidate that was chosen (0 is certainty; closer is better)."""
    terms, present, chosen = arrays(choices)
    chance = chances(terms, present, np.asarray(weights, dtype=float))
    return float(np.log(chance[np.arange(len(chosen)), chosen]).mean())
