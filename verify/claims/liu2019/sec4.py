"""002 §4 (L116): the back-propagation formula the text uses to explain why pretrained weights scale the gradient,
dL/dx_i^(k-1) = W_k I_i^k (dL/dx_i^k), checked with autograd on a drawn deep ReLU network (second reading, issue 27).
The rest of §4 (Figures 5-7, the singular vectors of the gradient in ResNet-50) needs the ImageNet experiments."""
from __future__ import annotations

import torch

from verify.kit import Alternative, Check, Claim, Custom, Domain, Evidence, Kind

from .common import src

WIDTHS = (6, 6, 6, 6)      # square layers, so that the transposed witness is defined


def _backprop(claim, ctx, variant="printed"):
    """x^k = relu(W_k^T x^(k-1)) (§6.1's convention f = a^T sigma(W^T x), W in R^(d x m)), L = (1/2)||v^T x^K - y||^2;
    the formula W_k I^k g^k (I^k = diag 1{W_k^T x^(k-1) >= 0}, g^k = dL/dx^k) against autograd at every layer.
    ``variant``: 'transpose' (W_k^T I^k g^k) or 'no_indicator' (W_k g^k), the power witnesses."""
    gen, seed = ctx.generator(claim.id, "network")
    g = lambda *s: torch.randn(*s, generator=gen, dtype=torch.float64, device=gen.device)  # noqa: E731
    Ws = [g(WIDTHS[k], WIDTHS[k + 1]) / WIDTHS[k] ** 0.5 for k in range(len(WIDTHS) - 1)]
    v, x0, y = g(WIDTHS[-1]), g(WIDTHS[0]), torch.tensor(0.3, dtype=torch.float64, device=gen.device)
    xs = [x0.requires_grad_(True)]
    for W in Ws:
        xs.append(torch.relu(W.T @ xs[-1]))
    for x in xs:
        x.retain_grad()
    L = 0.5 * (v @ xs[-1] - y) ** 2
    L.backward()
    worst = 0.0
    for k, W in enumerate(Ws, start=1):
        Ik = (W.T @ xs[k - 1].detach() >= 0).to(W.dtype)
        gk = xs[k].grad
        if variant == "transpose":
            f = W.T @ (Ik * gk)
        elif variant == "no_indicator":
            f = W @ gk
        else:
            f = W @ (Ik * gk)
        worst = max(worst, float((f - xs[k - 1].grad).norm() / max(float(xs[k - 1].grad.norm()), 1e-300)))
    ok = worst < 1e-12
    name = {"printed": "W_k I^k (dL/dx^k)", "transpose": "W_k^T I^k (dL/dx^k)", "no_indicator": "W_k (dL/dx^k)"}[variant]
    return Evidence(checks=[Check(f"§4: dL/dx^(k-1) = {name} at every layer (autograd)", ok,
                                  f"a drawn ReLU network with layers {WIDTHS}, x^k = relu(W_k^T x^(k-1)), squared loss: "
                                  f"largest relative gap {worst:.3g}",
                                  counterexample=None if ok else {"largest relative gap": worst})], seeds=[seed])


CLAIMS = [
    Claim(
        id="liu2019.sec4.backprop",
        kind=Kind.SYMBOLIC,
        source=src("§4 (L116): 'the gradient w.r.t. each layer is computed through back-propagation by dL/dx_i^(k-1) = "
                   "W_k I_i^k (dL/dx_i^k), where I_i^k denotes the activation of x_i at layer k'"),
        statement=r"\frac{\partial L}{\partial x_i^{k-1}}=W_k\,\mathbb I_i^k\Big(\frac{\partial L}{\partial x_i^k}\Big)",
        assumptions="x^k = relu(W_k^T x^(k-1)) (the layer convention of §6.1, f = a^T sigma(W^T x)); I_i^k the diagonal "
                    "matrix of the activation indicators 1{W_k^T x_i^(k-1) >= 0}",
        domain=Domain(()), role="remark",
        notes="Found in the second reading (issue 27).  The formula holds exactly (autograd, to rounding) with W_k in the "
              "orientation of §6.1 (W in R^(d x m), pre-activations W^T x); the text's conclusions from it ('the weight "
              "matrices W_k function as the scaling factor of gradient', Figure 7) need the ResNet-50 experiments.",
        check=Custom(_backprop),
        power=(Alternative("dL/dx^(k-1) = W_k^T I^k dL/dx^k", Custom(lambda claim, ctx: _backprop(claim, ctx, "transpose")),
                           "the forward map's orientation: the transpose of the matrix"),
               Alternative("dL/dx^(k-1) = W_k dL/dx^k", Custom(lambda claim, ctx: _backprop(claim, ctx, "no_indicator")),
                           "the activation indicator dropped (a linear network's rule)")),
    ),
]
