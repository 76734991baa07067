"""The GPU path, checked on the CPU: no tensor of a simulation or a claim sampler is created on a hard-coded device.

``--device cuda`` hands every check a generator on the GPU (``Context.generator``); a tensor factory without
``device=`` makes its tensor on the CPU, and the first operation mixing the two fails (``torch.randn(...,
generator=cuda_gen)`` fails at once).  There is no GPU here, so the check is static: every call of a torch tensor
factory in ``numerics/`` and ``verify/claims/`` names its device (``device=...``, or ``**kw`` carrying it), or says
on one of its lines why the CPU is meant (``# device: cpu (reason)``: data loaded on the host and moved, values of
a stated form computed in mpmath, results read on the host); and every ``t.numpy()`` moves ``t`` to the host first.

Not covered (stated, not hidden): a helper of ours called without its optional ``device=`` (it defaults to the
CPU), and a numpy result brought back without a device; the quick profile under ``--device cuda`` on a GPU is the
test of those.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FACTORIES = {"zeros", "ones", "empty", "full", "eye", "arange", "linspace", "logspace", "tensor", "as_tensor",
             "randn", "rand", "randint", "randperm", "normal", "from_numpy", "Generator"}
DIRS = ("numerics", "verify/claims")


def hard_coded(path: Path) -> list[str]:
    """``file:line: code`` of every torch factory call in ``path`` that names no device and gives no reason."""
    src = path.read_text()
    lines = src.splitlines()
    out = []
    for n in ast.walk(ast.parse(src)):
        if not (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in FACTORIES
                and isinstance(n.func.value, ast.Name) and n.func.value.id == "torch"):
            continue
        kws = {k.arg for k in n.keywords}
        if "device" in kws or None in kws:  # device=..., or **kw (which carries it)
            continue
        if any("# device:" in lines[i] for i in range(n.lineno - 1, n.end_lineno)):
            continue
        out.append(f"{path.relative_to(ROOT)}:{n.lineno}: {lines[n.lineno - 1].strip()}")
    return out


def _on_host(node) -> bool:
    """Whether a receiver chain moves its tensor to the host first (``.cpu()`` or ``.to("cpu")`` somewhere in it)."""
    while True:
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr == "cpu" or (node.func.attr == "to" and any(
                    isinstance(a, ast.Constant) and a.value == "cpu" for a in node.args)):
                return True
            node = node.func.value
        elif isinstance(node, (ast.Attribute, ast.Subscript)):
            node = node.value
        else:
            return False


def numpy_without_cpu(path: Path) -> list[str]:
    """``file:line: code`` of every ``t.numpy()`` whose tensor is not moved to the host first (fails on a GPU tensor)."""
    src = path.read_text()
    lines = src.splitlines()
    out = []
    for n in ast.walk(ast.parse(src)):
        if (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "numpy" and not n.args
                and not _on_host(n.func.value)
                and not any("# device:" in lines[i] for i in range(n.lineno - 1, n.end_lineno))):
            out.append(f"{path.relative_to(ROOT)}:{n.lineno}: {lines[n.lineno - 1].strip()}")
    return out


def _files():
    return sorted(p for d in DIRS for p in (ROOT / d).rglob("*.py"))


@pytest.mark.parametrize("path", _files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_tensor_on_a_hard_coded_device(path):
    bad = hard_coded(path)
    assert not bad, ("tensors created without device= (pass the input's or the generator's device, "
                     "or mark '# device: cpu (why)'):\n" + "\n".join(bad))


@pytest.mark.parametrize("path", _files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_numpy_of_a_device_tensor(path):
    bad = numpy_without_cpu(path)
    assert not bad, "t.numpy() without t.cpu() first (fails on a GPU tensor):\n" + "\n".join(bad)


def test_the_scan_sees_a_hard_coded_tensor(tmp_path, monkeypatch):
    monkeypatch.setattr(f"{__name__}.ROOT", tmp_path)
    f = tmp_path / "m.py"
    f.write_text("import torch\n"
                 "def f(gen, x):\n"
                 "    a = torch.randn(3, generator=gen)\n"                       # flagged: CPU tensor, maybe cuda gen
                 "    b = torch.zeros(3, dtype=x.dtype, device=x.device)\n"      # fine
                 "    c = torch.tensor([1.0],\n"
                 "                     dtype=x.dtype)  # device: cpu (a host value)\n"   # fine: reason given
                 "    return torch.empty(2, **{'device': x.device}), a, b, c\n")  # fine: **kw
    assert [s.split(":")[1] for s in hard_coded(f)] == ["3"]
    f.write_text("def g(x):\n    return x.numpy(), x.cpu().numpy(), x[0].cpu().double().numpy(), x.to('cpu').numpy()\n")
    assert [s.split(":")[1] for s in numpy_without_cpu(f)] == ["2"]


def test_generators_follow_the_run_device():
    """Context.generator makes its generator on the run's device (the samplers draw on it)."""
    import torch

    from verify.run import runner as api

    ctx = api.make_context("quick", 0, "cpu", progress=False)
    g, _ = ctx.generator("x")
    assert g.device == torch.device("cpu")
    with pytest.raises(api.DomainError, match="not available"):
        api.make_context("quick", 0, "cuda:7" if not torch.cuda.is_available() else "nodevice", progress=False)
