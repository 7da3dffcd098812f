"""simcore.pyframes: the frame-chunk allocator that spares numba's compiler CPython 3.11's
page faults. Checked in child processes (the allocator is process-wide): that it is in
place wherever the project's compiled modules are imported, that deep calls crossing a
frame-chunk boundary reuse a kept block instead of mapping fresh pages, and that the
interpreter keeps allocating and freeing correctly with it."""
import json
import os
import subprocess
import sys
import textwrap

from simcore import pyframes

# a call chain that goes down and back up across frame-chunk boundaries, 400 times at each
# of several depths (one of them crosses a boundary whatever the starting depth); the
# page faults of those calls, the allocator's counts, and whether it was in place
PROBE = textwrap.dedent("""
    import json, resource, sys
    import simcore.rng
    from simcore import pyframes
    sys.setrecursionlimit(10000)

    def down(n):
        return down(n - 1) if n else 0

    down(2000)      # warm: whatever the first deep call maps
    t0 = pyframes.TABLE.copy()
    f0 = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for depth in range(100, 1100, 100):
        for _ in range(400):
            down(depth)
    faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt - f0
    # pymalloc's arenas (1 MiB: never kept) come and go through the allocator too
    junk = [[i] * 3 for i in range(300_000)]
    del junk
    kept = [int(pyframes.TABLE[2 * i + 1]) for i in range(pyframes.SLOTS) if pyframes.TABLE[2 * i] != 0]
    print(json.dumps(dict(installed=pyframes.installed(), faults=faults, kept_sizes=kept,
                          hits=int(pyframes.TABLE[pyframes.HITS] - t0[pyframes.HITS]),
                          maps=int(pyframes.TABLE[pyframes.MAPS] - t0[pyframes.MAPS]))))
""")


def _probe(**env):
    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=300,
                         env={**os.environ, **env}, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_wanted_on_cpython_311_linux_only():
    expect = (sys.implementation.name == "cpython" and sys.version_info[:2] == (3, 11)
              and sys.platform.startswith("linux"))
    assert pyframes.wanted() == expect


def test_deep_calls_reuse_kept_frame_chunks_instead_of_new_pages():
    on = _probe()
    off = _probe(PLAYTEST_FRAME_CACHE="0")
    assert on["installed"] == pyframes.wanted() and off["installed"] is False
    # without it, every crossing maps a fresh chunk and faults its pages in
    assert off["faults"] >= 4000, off
    assert off["hits"] == 0 and off["maps"] == 0
    if pyframes.wanted():
        assert on["hits"] >= 4000, on          # the crossings took kept blocks
        assert on["faults"] * 20 < off["faults"], (on, off)
        # only small blocks are kept (frame chunks), never pymalloc's 1 MiB arenas
        assert on["kept_sizes"] and max(on["kept_sizes"]) <= pyframes.MAX_KEPT, on
        assert on["maps"] > 0                 # the arenas were mapped through it


def test_the_interpreter_runs_normally_on_it():
    """Objects, threads and deep recursion on the allocator: the results are right."""
    code = textwrap.dedent("""
        import sys, threading
        import simcore.rng
        from simcore import pyframes
        assert pyframes.installed() == pyframes.wanted()
        sys.setrecursionlimit(20000)
        def fib_depth(n):
            return 0 if n == 0 else 1 + fib_depth(n - 1)
        out = []
        def work(k):
            out.append(sum(fib_depth(5000) for _ in range(20)) + k)
        ts = [threading.Thread(target=work, args=(k,)) for k in range(4)]
        [t.start() for t in ts]
        [t.join() for t in ts]
        big = {i: str(i) * 5 for i in range(200_000)}
        print(sorted(out), len(big), big[123456])
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=True)
    assert out.stdout.split() == ["[100000,", "100001,", "100002,", "100003]", "200000",
                                  "123456123456123456123456123456"]


def test_the_default_allocator_is_back_before_the_interpreter_tears_down():
    """At exit the default allocator is put back before modules are dismantled (a first
    version kept its table in a numpy array that the interpreter freed at exit while frames
    were still freed through it: glibc aborted 2 runs in 12). The table is C memory that no
    Python object owns."""
    code = textwrap.dedent("""
        import atexit
        def last():                 # registered first: runs after simcore's handler
            from simcore import pyframes
            print("at exit installed:", pyframes.installed())
        atexit.register(last)
        import simcore.rng
        from simcore import pyframes
        print("running installed:", pyframes.installed(), "owns table:", pyframes.TABLE.flags.owndata)
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=True)
    want = pyframes.wanted()
    assert out.stdout.split("\n")[:2] == [f"running installed: {want} owns table: False",
                                          "at exit installed: False"]
