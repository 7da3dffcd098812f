import numpy as np

from simcore import rng


def test_stream_key_python_equals_compiled():
    for seed in (0, 1, 12345, 2**63 - 1):
        for index in (0, 1, 999, 10**9):
            for domain in (0, 7):
                assert rng.stream_key(seed, index, domain) == int(rng.stream_key_nb(seed, index, domain))


def test_streams_agree_value_for_value():
    a = rng.new_state(42, 17)
    b = a.copy()
    for n in (2, 3, 6, 13, 52, 1000):
        for _ in range(50):
            assert rng.below_py(a, n) == rng.below_nb(b, n)
        assert rng.uniform_py(a) == rng.uniform_nb(b)
    assert a[1] == b[1]


def test_stream_depends_only_on_seed_and_index():
    s1, s2 = rng.Stream(5, 10), rng.Stream(5, 10)
    assert [s1.below(6) for _ in range(20)] == [s2.below(6) for _ in range(20)]
    other = rng.Stream(5, 11)
    assert [rng.Stream(5, 10).below(1 << 30) for _ in range(4)] != [other.below(1 << 30) for _ in range(4)]


def test_die_is_uniform():
    st = rng.new_state(3, 0)
    counts = np.bincount([rng.below_nb(st, 6) for _ in range(60000)], minlength=6)
    # chi-square with 5 dof: 99.99th percentile is about 25.7
    chi2 = ((counts - 10000) ** 2 / 10000).sum()
    assert chi2 < 25.7
