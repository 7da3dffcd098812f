"""Multisets of dice outcomes: the state space of the exact roll-phase solvers.

A set of dice is cut into *groups* of identical dice (a hero's five dice are one group;
four hero dice and one special die are two). Within a group the order of the dice does
not matter, so a hand is, per group, a multiset of the group's faces. Faces of one die
that are identical (same number and symbol) are merged into one *slot* with a weight
(how many of the six faces show it), so the space is as small as the dice allow.

Slots keep both the face number and the symbol, which is what the targets need:
straights and ``kind:N`` are judged on numbers, everything else on symbols.

    space = DiceSpace.build([die] * 5)
    space.hands    # [n_hands, n_slots] dice per slot, each group summing to its size
    space.keeps    # [n_keeps, n_slots] sub-multisets (any number of dice kept per group)
    space.trans    # per keep: the hands reachable by rerolling the rest, with weights

``trans[k] = (hand_idx, weight)``: rerolling every die not in keep ``k`` gives hand
``hand_idx[j]`` in ``weight[j]`` of the ``6 ** (dice - kept)`` equally likely ordered
outcomes (integers, so exact solvers can use them as they are).
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from math import factorial

import numpy as np

from ..dice import Die, Face
from ..errors import PlaytestError

MAX_SPACE_DICE = 6
MAX_CODE_SPACE = 1 << 22  # per group: (n_g + 1) ** n_slots_g codes


def _multisets(n_slots: int, total: int):
    """All count vectors of length ``n_slots`` summing to ``total`` (lexicographic)."""
    if n_slots == 0:
        if total == 0:
            yield ()
        return
    for c in range(total, -1, -1):
        for rest in _multisets(n_slots - 1, total - c):
            yield (c,) + rest


def _roll_weights(slot_weights, counts) -> int:
    """Ordered outcomes of ``sum(counts)`` dice of one group giving exactly ``counts``:
    multinomial(counts) * prod(weight ** count)."""
    n = sum(counts)
    w = factorial(n)
    for c, sw in zip(counts, slot_weights):
        w //= factorial(c)
        w *= sw ** c
    return w


@dataclass
class Group:
    die: Die
    n: int                 # dice of this group rolled (unlocked)
    faces: list            # distinct Face of the die, one per slot
    weights: list          # faces of the die showing each slot (sum 6)
    face_slot: list        # die face index 0..5 -> slot within the group


class DiceSpace:
    """Hands, keeps and reroll transitions of a set of dice (see the module doc)."""

    def __init__(self, groups: list[Group], locked: tuple = (), collapse: bool = True):
        self.groups = groups
        self.locked = tuple(locked)
        self.collapse = collapse
        self.n_dice = sum(g.n for g in groups)
        # global slots
        self.slot_group, self.slot_face, self.slot_weight = [], [], []
        self.group_slots = []
        for gi, g in enumerate(groups):
            base = len(self.slot_group)
            self.group_slots.append(list(range(base, base + len(g.faces))))
            for f, w in zip(g.faces, g.weights):
                self.slot_group.append(gi)
                self.slot_face.append(f)
                self.slot_weight.append(w)
        self.n_slots = len(self.slot_group)
        self._enumerate()

    # ------------------------------------------------------------------ building
    @classmethod
    def build(cls, dice, locked=(), collapse: bool = True) -> "DiceSpace":
        """``dice``: the ``Die`` of every die rolled (identical dice are grouped);
        ``locked``: faces (``Face``) of dice set aside for the whole roll phase."""
        dice = list(dice)
        if not dice:
            raise PlaytestError("at least one die must be rolled (all dice are locked)", field="--locked")
        if len(dice) + len(locked) > MAX_SPACE_DICE:
            raise PlaytestError(f"at most {MAX_SPACE_DICE} dice, got {len(dice) + len(locked)}", field="--dice")
        order: list[Die] = []
        counts: dict = {}
        for d in dice:
            key = d.faces
            if key not in counts:
                order.append(d)
                counts[key] = 0
            counts[key] += 1
        groups = []
        for d in order:
            if collapse:
                faces, weights, face_slot = [], [], []
                for f in d.faces:
                    if f not in faces:
                        faces.append(f)
                        weights.append(0)
                    weights[faces.index(f)] += 1
                    face_slot.append(faces.index(f))
            else:
                faces, weights, face_slot = list(d.faces), [1] * 6, list(range(6))
            groups.append(Group(d, counts[d.faces], faces, weights, face_slot))
        return cls(groups, locked, collapse)

    def _enumerate(self) -> None:
        per_group_hands = []
        per_group_keeps = []
        for g in self.groups:
            k = len(g.faces)
            if (g.n + 1) ** k > MAX_CODE_SPACE:
                raise PlaytestError(f"dice space too large ({g.n} dice with {k} distinct faces)")
            per_group_hands.append(list(_multisets(k, g.n)))
            per_group_keeps.append([m for t in range(g.n, -1, -1) for m in _multisets(k, t)])
        hands = [sum(p, ()) for p in itertools.product(*per_group_hands)]
        keeps = [sum(p, ()) for p in itertools.product(*per_group_keeps)]
        self.hands = np.array(hands, np.int64).reshape(len(hands), self.n_slots)
        self.keeps = np.array(keeps, np.int64).reshape(len(keeps), self.n_slots)
        self.hand_index = {h: i for i, h in enumerate(hands)}
        self.keep_index = {k: i for i, k in enumerate(keeps)}
        self.n_hands, self.n_keeps = len(hands), len(keeps)
        self.keep_size = self.keeps.sum(axis=1)
        self.full_keep = np.array([self.keep_index[h] for h in hands], np.int64)
        self.empty_keep = self.keep_index[(0,) * self.n_slots]
        # reroll outcomes per group and per number of dice rerolled: (counts, weight)
        outcomes = []
        for g in self.groups:
            per_m = {}
            for m in range(g.n + 1):
                per_m[m] = [(c, _roll_weights(g.weights, c)) for c in _multisets(len(g.faces), m)]
            outcomes.append(per_m)
        self.trans = []
        for keep in keeps:
            parts = []
            for gi, g in enumerate(self.groups):
                sl = self.group_slots[gi]
                kept = tuple(keep[s] for s in sl)
                parts.append([(tuple(a + b for a, b in zip(kept, c)), w)
                              for c, w in outcomes[gi][g.n - sum(kept)]])
            idx, wts = [], []
            for combo in itertools.product(*parts):
                hand = sum((c for c, _ in combo), ())
                w = 1
                for _, x in combo:
                    w *= x
                idx.append(self.hand_index[hand])
                wts.append(w)
            self.trans.append((np.array(idx, np.int64), wts))
        # sub-keeps of every hand: the full hand first, then by decreasing size
        subs = []
        for h in hands:
            ranges = [range(c, -1, -1) for c in h]
            ks = sorted(itertools.product(*ranges), key=lambda k: -sum(k))
            subs.append([self.keep_index[k] for k in ks])
        width = max(len(s) for s in subs)
        self.sub = np.full((self.n_hands, width), -1, np.int64)
        for i, s in enumerate(subs):
            self.sub[i, :len(s)] = s
        self._matrix = None

    # ------------------------------------------------------------------ helpers
    @property
    def matrix(self) -> np.ndarray:
        """Dense float ``[n_keeps, n_hands]`` transition probabilities."""
        if self._matrix is None:
            m = np.zeros((self.n_keeps, self.n_hands))
            for k, (idx, wts) in enumerate(self.trans):
                rerolled = self.n_dice - int(self.keep_size[k])
                np.add.at(m[k], idx, np.array(wts, np.float64) / float(6 ** rerolled))
            self._matrix = m
        return self._matrix

    def hand_faces(self, h: int) -> list[Face]:
        """The faces of hand ``h`` plus the locked faces (what a target is judged on)."""
        out = []
        for s, c in enumerate(self.hands[h]):
            out.extend([self.slot_face[s]] * int(c))
        return out + list(self.locked)

    def keep_faces(self, k: int) -> list[Face]:
        out = []
        for s, c in enumerate(self.keeps[k]):
            out.extend([self.slot_face[s]] * int(c))
        return out

    def counts_of(self, faces_per_group) -> tuple:
        """Slot counts from per-group lists of die face indices (0..5)."""
        counts = [0] * self.n_slots
        for gi, faces in enumerate(faces_per_group):
            g = self.groups[gi]
            for f in faces:
                counts[self.group_slots[gi][g.face_slot[f]]] += 1
        return tuple(counts)

    def slot_of_face(self, face: Face, group: int) -> int | None:
        g = self.groups[group]
        if face in g.faces:
            return self.group_slots[group][g.faces.index(face)]
        return None

    def met_vector(self, target) -> np.ndarray:
        """bool[n_hands]: does the hand (with the locked dice) satisfy ``target``?"""
        return np.array([target.met(self.hand_faces(h)) for h in range(self.n_hands)], bool)

    # ---------------------------------------------------------- compiled lookups
    def lookup_tables(self):
        """Arrays for the compiled kernels: a hand's index from per-group codes.

        Code of a group = sum over its slots of count * (n_g + 1) ** local_slot; the hand
        index is ``sum_g rank_g[code_g] * stride_g`` where ``rank`` tables are stored
        one after the other (``rank_off[g]``).
        """
        G = len(self.groups)
        slot_pow = np.zeros(self.n_slots, np.int64)
        rank_off = np.zeros(G, np.int64)
        stride = np.zeros(G, np.int64)
        ranks = []
        off = 0
        for gi, g in enumerate(self.groups):
            base = g.n + 1
            for j, s in enumerate(self.group_slots[gi]):
                slot_pow[s] = base ** j
            size = base ** len(g.faces)
            tab = np.full(size, -1, np.int64)
            for r, m in enumerate(_multisets(len(g.faces), g.n)):
                tab[sum(c * base ** j for j, c in enumerate(m))] = r
            ranks.append(tab)
            rank_off[gi] = off
            off += size
        s = 1
        for gi in range(G - 1, -1, -1):
            stride[gi] = s
            s *= sum(1 for _ in _multisets(len(self.groups[gi].faces), self.groups[gi].n))
        rank = np.concatenate(ranks)
        # a keep's per-group code, and dice rerolled per group
        keep_code = np.zeros((self.n_keeps, G), np.int64)
        keep_reroll = np.zeros((self.n_keeps, G), np.int64)
        for k in range(self.n_keeps):
            for gi, g in enumerate(self.groups):
                sl = self.group_slots[gi]
                keep_code[k, gi] = sum(int(self.keeps[k, s_]) * slot_pow[s_] for s_ in sl)
                keep_reroll[k, gi] = g.n - sum(int(self.keeps[k, s_]) for s_ in sl)
        # die face index -> global slot, per group
        face_slot = np.zeros((G, 6), np.int64)
        for gi, g in enumerate(self.groups):
            for f in range(6):
                face_slot[gi, f] = self.group_slots[gi][g.face_slot[f]]
        return slot_pow, rank, rank_off, stride, keep_code, keep_reroll, face_slot
