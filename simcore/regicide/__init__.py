"""Regicide: the cooperative card game (digest: simcore/regicide/RULES.md).

- ``model``: cards, rule options (``rules.toml``), state-vector layout, record fields;
- ``reference``: the pure-Python reference engine;
- ``engine``: the same rules compiled with numba (a state machine over the state vector);
- ``sim``: the chunked kernel, reference runs and plug-in kernels.
"""
