"""benchmarks/full_cost.py: a claim's full-profile cost counts its groups of points that share their draws (a point
run alone makes its whole group's draws), nothing simulated here."""
import importlib.util
from pathlib import Path

from verify.run import runner as api

_spec = importlib.util.spec_from_file_location("full_cost", Path(__file__).resolve().parents[1] / "benchmarks" /
                                               "full_cost.py")
FC = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(FC)


def _claim(cid):
    (c,) = [c for c in api.select([cid]) if c.id == cid]
    return c


def test_draw_groups():
    ctx = api.make_context("full", 0, progress=False)
    thm39 = _claim("tahir2024.thm3.9")  # PerGroup(shared="theta"): 3 L x 5 gamma x 4 sigma groups of 6 angles
    assert len(FC.full_grid(thm39, ctx)) == 360 and FC.draw_groups(thm39, ctx) == 60
    tr = _claim("tahir2024.thm3.9.transferability")  # AllOf: a vector Asymptotic (36 groups) and a figure sweep
    assert FC.draw_groups(tr, ctx) < len(FC.full_grid(tr, ctx))
    thm2 = _claim("liu2019.thm2")  # independent points: one group each
    assert FC.draw_groups(thm2, ctx) == len(FC.full_grid(thm2, ctx)) > 1


def test_regroup():
    ext = {"seconds": 600.0, "points": 6, "measured_points": 1, "how": "extrapolated from 1 of 6 points (100.0 s)"}
    assert FC._regroup(ext, 6, 2)["seconds"] == 200.0
    lb = {"seconds": 720.0, "lower_bound": True, "how": "over budget at a point (120 s) of 6: at least 120 s x 6 points"}
    assert FC._regroup(lb, 6, 2)["seconds"] == 240.0
    whole = {"seconds": 50.0, "how": "measured whole"}
    assert FC._regroup(whole, 6, 2) == whole and FC._regroup(ext, 6, 6) == ext
    once = FC._regroup(ext, 6, 2)
    assert FC._regroup(once, 6, 2) == once  # a row already counted by groups is left alone
