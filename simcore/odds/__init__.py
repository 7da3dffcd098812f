"""Exact dice odds: multiset state spaces (``space``), the probability solver
(``solver``), the value-maximising roll phase (``value``), the Monte Carlo cross-check
kernel (``mc``) and the duel heroes' odds tables (``duel``)."""
