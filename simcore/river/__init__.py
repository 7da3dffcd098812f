"""River battle (issue 11): an asymmetric two-role siege card game, attacker against
defender at seven two-sided dam tiles (digest: /work/shared/rules/river-battle.md; a
re-theme of Reiner Knizia's *Schotten Totten 2*).

model.py (data, rule options, state layout), formations.py (numba formation ranking and
the exact control proof), kernel.py (numba state machine), reference.py (pure-Python twin
with a play-by-play log), game.py (description for the shared registry)."""
