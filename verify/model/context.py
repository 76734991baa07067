"""Run context: profile, seeds, device and precision shared by every check of a run."""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any, Mapping

import torch


@dataclass(frozen=True)
class Profile:
    """How much work a run does.

    ``trials`` is the default number of Monte Carlo trials per parameter point,
    ``scale`` multiplies the simulated sizes of literal-training checks, and
    ``examples`` is the number of hypothesis examples of a property search.
    ``claim_timeout`` is the default wall-clock limit of one claim's check in seconds (``run --claim-timeout``;
    None: no limit).  Generous on purpose: the slowest built-in claim took 877 s at standard
    (tahir2024.relu.eq21, reports/results.json ``timing.claims``; 4x headroom), and the whole quick profile takes
    about ten minutes; at full one claim (tahir2024.thm3.9) costs about 11 CPU hours (benchmarks/README.md §3), so
    full has no default limit.

    Parameters
    ----------
    name
        ``'quick'``, ``'standard'`` or ``'full'`` (the key of per-profile settings, :func:`pick`).
    trials, scale, examples, claim_timeout
        as above.
    """

    name: str
    trials: int
    scale: float
    examples: int
    claim_timeout: float | None = None


PROFILES: dict[str, Profile] = {
    "quick": Profile("quick", trials=2_000, scale=0.5, examples=300, claim_timeout=900.0),
    "standard": Profile("standard", trials=20_000, scale=1.0, examples=2_000, claim_timeout=3600.0),
    "full": Profile("full", trials=100_000, scale=2.0, examples=10_000, claim_timeout=None),
}


def pick(profile: Profile, choices: Mapping[str, Any]) -> Any:
    """Select a per-profile setting from ``{'quick': ..., 'standard': ..., 'full': ...}``.

    Parameters
    ----------
    profile
        the run's :class:`Profile`.
    choices
        profile name -> value; a profile not named takes the ``'standard'`` value.
    """
    return choices[profile.name] if profile.name in choices else choices["standard"]


def derive_seed(*keys: Any) -> int:
    """A 63-bit seed determined by the keys (run seed, claim id, point label...)."""
    h = hashlib.sha256("\x1f".join(map(str, keys)).encode()).digest()
    return int.from_bytes(h[:8], "little") >> 1


@dataclass
class Context:
    """The run a check is called in: the profile (sizes, trials), the run seed and per-claim generators
    (``ctx.generator(claim.id, ...)``), the torch device and dtype, and the user's ``--at`` points.

    Parameters
    ----------
    profile
        the run's :class:`Profile`.
    seed
        the run seed; every generator is derived from it and its keys (:func:`derive_seed`).
    device, dtype
        where and in which precision samplers compute (float64 unless told otherwise).
    progress
        show progress bars.
    at
        user-given parameter points (``--at``) replacing a check's grid, or None.
    draws
        the random generators handed out so far: a claim whose check drew none rests on our derivation alone.
    memo
        an optional memo of Monte Carlo samples (set by ``verify mutants``), None in a run.
    """

    profile: Profile
    seed: int = 0
    device: torch.device = field(default_factory=lambda: torch.device("cpu"))
    dtype: torch.dtype = torch.float64
    progress: bool = True
    at: list[dict] | None = None  # user-given parameter points, replacing a check's grid
    #: random generators handed out so far (reset per claim by api.run): a claim whose check drew none
    #: rests on our derivation alone (symbolic and closed-form checks), which the report says
    draws: int = field(default=0, compare=False, repr=False)
    #: optional memo of Monte Carlo samples, (run seed, keys, trials, chunk, sampler, point) -> samples: set by
    #: ``verify mutants``, which runs a claim's check once per perturbed stated form on the same draws
    memo: dict | None = field(default=None, compare=False, repr=False)

    def seed_for(self, *keys: Any) -> int:
        return derive_seed(self.seed, *keys)

    def generator(self, *keys: Any) -> tuple[torch.Generator, int]:
        """A torch generator on the run's device, seeded from the run seed and ``keys``."""
        s = self.seed_for(*keys)
        self.draws += 1
        g = torch.Generator(device=self.device)
        g.manual_seed(s)
        return g, s
