"""verify.judge.per_point: a check whose evidence over a grid is its points' evidence joined in grid order (the unit a
distributed run may split by grid point; the Dask path itself is tested in tests/test_distributed.py)."""
from types import SimpleNamespace

from verify.run import runner as api
from verify.model.evidence import Check, Evidence
from verify.judge import Custom
from verify.judge.per_point import PerPoint, join, split


def _fn(claim, ctx, points):
    (p,) = points  # PerPoint calls fn one point at a time
    ev = Evidence(checks=[Check(f"x={p['x']}", True, "")], seeds=[p["x"]])
    ev.details.update({"rows": [p["x"]], "pair": (p["x"], 0), "same": 1, "differs": p["x"]})
    return ev


GRID = [{"x": 1}, {"x": 2}, {"x": 3}]


def test_run_is_the_join_of_its_points():
    check = PerPoint(_fn, points=GRID)
    claim, ctx = SimpleNamespace(check=check), api.make_context("quick", 0, progress=False)
    ev = check.run(claim, ctx)
    assert [c.name for c in ev.checks] == ["x=1", "x=2", "x=3"] and ev.seeds == [1, 2, 3]
    assert ev.to_json() == join([check.at(claim, ctx, i) for i in range(3)], GRID).to_json()
    d = ev.details
    assert d["rows"] == [1, 2, 3] and d["pair"] == [1, 0, 2, 0, 3, 0] and d["same"] == 1
    assert d["differs"] == 1 and d["differs (x=2)"] == 2 and d["differs (x=3)"] == 3


def test_join_reads_a_tuple_back_from_json_as_a_list():
    """A worker's evidence comes back through JSON (tuples become lists): the join is the same either way."""
    from verify.run.cache import evidence_from_json

    evs = [_fn(None, None, [p]) for p in GRID]
    assert join(evs, GRID).to_json() == join([evidence_from_json(e.to_json()) for e in evs], GRID).to_json()


def test_split():
    claim = SimpleNamespace(check=PerPoint(_fn, points=GRID))
    ctx = api.make_context("quick", 0, progress=False)
    assert split(claim, ctx) == 3
    assert split(SimpleNamespace(check=PerPoint(_fn, points=GRID[:1])), ctx) == 0      # one point: one task
    assert split(SimpleNamespace(check=Custom(_fn, points=GRID)), ctx) == 0            # Custom: one task
    (real,) = api.select(["liu2019.thm2"])
    assert split(real, ctx) == 3
    assert split(real, api.make_context("quick", 0, at=[GRID[0]], progress=False)) == 0  # --at: one task


# ------------------------------------------------------------------ PerGroup: groups of points sharing their draws

def _toy_sampler(p, trials, gen, ctx):
    """One draw per trial shared by every value of p['t'] (a vector parameter): t + z (1 + a) / d."""
    import torch

    z = torch.randn(trials, 1, generator=gen, dtype=ctx.dtype)
    return torch.tensor(p["t"], dtype=ctx.dtype) + z * (1 + p["a"]) / p["d"]


def _toy_asymptotic(points):
    from verify.judge import Asymptotic

    return Asymptotic(points=points, sizes={"quick": (8, 16, 32), "standard": (8, 16, 32)},
                      finite_params=lambda p, N: {**p, "d": N}, stated=lambda p: p["t"], sampler=_toy_sampler,
                      vector="t", trials=300)


TOY = [{"a": a, "t": t} for a in (0.0, 1.0, 2.0) for t in (0.0, 0.5, 1.0)]


def _toy_fn(claim, ctx, points):
    return _toy_asymptotic(points).run(claim, ctx)


def test_per_group_is_the_whole_check_split_by_shared_draws():
    """A vector Asymptotic run as PerGroup (one call per group of points differing only in the shared
    parameter) gives the evidence of the same check run on the whole grid at once, and one task per group."""
    from verify.judge.per_group import PerGroup

    ctx = api.make_context("quick", 0, progress=False)
    whole = _toy_fn(SimpleNamespace(id="toy"), ctx, TOY)
    check = PerGroup(_toy_fn, points=TOY, shared="t")
    claim = SimpleNamespace(id="toy", check=check)
    ev = check.run(claim, ctx)
    assert len(ev.tests) == 9 and len(set(ev.seeds)) == 9  # 9 limits tested; 3 groups x 3 sizes: 9 streams
    assert ev.to_json() == whole.to_json()
    assert check.grid(claim, ctx) == [{"a": 0.0}, {"a": 1.0}, {"a": 2.0}] and split(claim, ctx) == 3
    assert join([check.at(claim, ctx, i) for i in range(3)], check.grid(claim, ctx)).to_json() == ev.to_json()
    (real,) = [c for c in api.select(["tahir2024.thm3.9"]) if c.id == "tahir2024.thm3.9"]
    assert split(real, ctx) == 4  # quick: 2 gamma x 2 sigma, theta (3 values) shares the draws
