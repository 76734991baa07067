"""Where the standard run's time goes: the heaviest claims, each run alone at standard under cProfile.

The claims are picked from the ``timing`` block of a finished run's ``results.json`` (default: the
committed reference run, ``reports/results.json``), heaviest first, or named with ``--claims``.  Each
is run by ``verify.run.runner.run([id], profile="standard", seed=0)`` in this process on one torch thread
(what each of the two workers of ``--jobs 2`` gets), under cProfile, and its time is split by
function into classes:

* sampling: numpy / torch random draws (``numerics.sampling`` and direct ``randn`` calls);
* linear algebra: torch / numpy / scipy matrix kernels (matmul, bmm, solves, factorisations, eig);
* elementwise torch: the other torch kernels (reductions, arithmetic, indexing);
* pool threads: the main thread waiting for the worker threads of ``numerics.least_squares.map_batch``,
  ``numerics.sampling`` and ``numerics.scratch`` (sampling and solves run there; cProfile sees only
  the main thread, so this is their wall time, not split further);
* sympy / mpmath: closed forms and high-precision references;
* Python: everything else (interpreter time in the suite's own functions, judge and statistics).

    python benchmarks/profile_standard.py [--top 3 | --claims ID ...] [--out benchmarks/local/profile_standard.json]

Prints one markdown row per claim (its wall time, the reference run's time, the classes' shares and
the heaviest functions) and writes the JSON after every claim, so an interrupted run keeps what it has.
"""
from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import torch  # noqa: E402

CLASSES = ("sampling", "linear algebra", "elementwise torch", "pool threads", "sympy / mpmath", "Python")
_LINALG = ("matmul", "bmm", "baddbmm", "addmm", "einsum", "linalg", "cholesky", "solve", "triangular", "eig",
           "svd", "qr", "lu", "potr", "gemm", "syrk", "mv", "dot", "inner", "outer", "matrix_power")
_RANDOM = ("randn", "normal", "standard_normal", "rand", "randint", "multinomial", "random")


def classify(func: tuple) -> str:
    """The class of one cProfile entry (file, line, name)."""
    file, _, name = func
    low = name.lower()
    if file == "~":  # a builtin: name like "<method 'standard_normal' of ...>" or "<built-in method torch.bmm>"
        if "acquire" in low or "wait" in low:
            return "pool threads"
        if any(k in low for k in _RANDOM):
            return "sampling"
        if any(k in low for k in _LINALG) or "@" in low:
            return "linear algebra"
        if "torch" in low or "tensor" in low:
            return "elementwise torch"
        if "numpy" in low or "ndarray" in low:
            return "elementwise torch"  # numpy array arithmetic (counted with the array kernels)
        return "Python"
    if "sympy" in file or "mpmath" in file:
        return "sympy / mpmath"
    if "threading.py" in file or "concurrent/futures" in file:
        return "pool threads"
    return "Python"


def profile_claim(cid: str, profile: str, seed: int) -> dict:
    from verify import api

    prof = cProfile.Profile()
    t0 = time.perf_counter()
    prof.enable()
    exact = cid[:-1] + "[" + cid[-1] + "]"  # a glob matching the id only (a plain id also selects its sub-claims)
    res = api.run([exact], profile=profile, seed=seed)
    prof.disable()
    wall = time.perf_counter() - t0
    st = pstats.Stats(prof)
    by_class = dict.fromkeys(CLASSES, 0.0)
    funcs = []
    for func, (_, _, tottime, _, _) in st.stats.items():
        by_class[classify(func)] += tottime
        funcs.append((tottime, f"{Path(func[0]).name}:{func[2]}" if func[0] != "~" else func[2]))
    funcs.sort(reverse=True)
    total = sum(by_class.values()) or 1.0
    verdicts = {r.claim.id: str(r.verdict.value if hasattr(r.verdict, "value") else r.verdict) for r in res.claims}
    return {"claim": cid, "wall_s": round(wall, 2), "verdicts": verdicts,
            "share": {k: round(v / total, 3) for k, v in by_class.items()},
            "top_functions": [{"s": round(t, 2), "function": f} for t, f in funcs[:8]]}


def _fail(msg: str):
    """Bad input: one line on stderr, exit status 2 (as the verify CLI)."""
    print(f"error: {msg}", file=sys.stderr)
    raise SystemExit(2)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--results", default=str(ROOT / "reports" / "results.json"),
                    help="a finished run whose timing block picks the heaviest claims")
    ap.add_argument("--top", type=int, default=3, help="how many of the heaviest claims (default 3)")
    ap.add_argument("--claims", nargs="*", help="claim ids to profile instead of the heaviest")
    ap.add_argument("--profile", default="standard")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=1, help="torch intra-op threads (1: one worker of --jobs 2)")
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "local" / "profile_standard.json"))
    a = ap.parse_args(argv)
    try:
        timing = json.loads(Path(a.results).read_text())["timing"]["claims"]
    except (OSError, KeyError, ValueError) as e:
        _fail(f"cannot read the timing block of {a.results}: {e}")
    ref = {k: (v if isinstance(v, (int, float)) else v.get("seconds", 0.0)) for k, v in timing.items()}
    ids = a.claims or sorted(ref, key=lambda k: -ref[k])[:a.top]
    torch.set_num_threads(a.threads)
    from verify.run.registry import all_claims

    known = {c.id for c in all_claims()}  # imports every claims module before any profile starts
    unknown = [c for c in ids if c not in known]
    if unknown:
        _fail(f"unknown claim id {unknown[0]!r} (python -m verify list shows the ids)")
    out = {"profile": a.profile, "seed": a.seed, "threads": a.threads, "torch": torch.__version__,
           "reference_run": a.results, "reference_total_s": round(sum(ref.values()), 1), "claims": []}
    print("| claim | wall (s) | reference (s) | " + " | ".join(CLASSES) + " | heaviest functions | load |")
    print("|---|---|---|" + "---|" * len(CLASSES) + "---|---|")
    for cid in ids:
        row = profile_claim(cid, a.profile, a.seed)
        row["reference_s"] = ref.get(cid)
        row["load_average"] = [round(x, 2) for x in os.getloadavg()]
        out["claims"].append(row)
        Path(a.out).parent.mkdir(parents=True, exist_ok=True)
        Path(a.out).write_text(json.dumps(out, indent=1) + "\n")
        tops = "; ".join(f"{f['function']} {f['s']}" for f in row["top_functions"][:3])
        print(f"| {cid} | {row['wall_s']} | {row['reference_s']} | "
              + " | ".join(f"{row['share'][c]:.0%}" for c in CLASSES) + f" | {tops} | {row['load_average'][0]} |",
              flush=True)


if __name__ == "__main__":
    main()
