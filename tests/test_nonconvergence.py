"""A training run that did not converge is never evidence: with every trainer capped at one step
(numerics.capped_steps), each claim that rests on literal training must come out inconclusive."""
from __future__ import annotations

import pytest

import numerics
from verify import api
from verify.run.registry import all_claims

#: claims whose checks train a model (gradient descent to convergence), per training procedure
TRAINING_CLAIMS = [
    "tahir2024.lemma3.3",           # numerics.deep_linear.train, population loss
    "tahir2024.thm3.4",             # numerics.deep_linear.pretrain
    "tahir2024.thm3.5",             # numerics.deep_linear.scratch
    "tahir2024.thm3.9.end_state",   # numerics.deep_linear.pretrain + finetune
    "shachaf2021.thm4.1",           # numerics.linear_finetune.gd_finetune
    "shachaf2021.thm5.2",           # numerics.deep_linear (pretraining and fine-tuning of deep linear networks)
    "shachaf2021.thm6.1",           # numerics.ntk_finetune (two_layer.train_gd: wide ReLU networks)
    "liu2019.thm1",                 # numerics.two_layer.transfer_sweep (pretraining on P, fine-tuning on Q)
]
KNOWN = {c.id for c in all_claims()}


@pytest.mark.parametrize("claim_id", [c for c in TRAINING_CLAIMS if c in KNOWN])
def test_forced_nonconvergence_is_inconclusive(claim_id):
    with numerics.capped_steps(1):
        r = api.run([claim_id], profile="quick", seed=0, progress=False).claims[0]
    assert r.verdict.value == "inconclusive", f"{claim_id}: {r.verdict.value} ({r.reason})"
    assert any("converge" in (c.detail + c.name).lower() for c in r.evidence.checks), r.reason
