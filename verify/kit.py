"""The claim author's kit: everything a claims module imports, from one place.

A claims module (``verify/claims/<paper>/<topic>.py``) holds declarations only: it imports its
closed forms from :mod:`derivations`, its procedures from :mod:`numerics`, and the claim model,
judge strategies and helpers from here — never from judge or evidence internals::

    from derivations import wishart as W
    from numerics.scratch import min_norm_risk
    from verify.kit import Claim, Domain, Expectation, Kind, Param, Source

The names are grouped as the judge groups them (cf. ``neural_tangents.stax``).  ``__all__`` is
the contract: ``tests/test_kit.py`` checks it is complete (every public judge strategy is here)
and that no claims module imports from ``verify.judge`` / ``verify.model`` directly (tests/test_layers.py).
"""
from __future__ import annotations

# --- the claim model: what is stated, where, over which domain
from verify.model.claim import ROLES, Alternative, Claim, Constraint, Domain, DomainError, Kind, Param, RootCause, Source, Verdict
# --- the paper a claims package reads: PAPER = Paper(key, file_or_citation, title) in its __init__.py
from verify.model.paper import Paper
# --- evidence a custom check returns
from verify.model.evidence import EVERY_VALUE, Check, Evidence, StatTest
# --- run context: profile, seeds, per-profile values, compute budgets
from verify.model.context import Context, Profile, derive_seed, pick
from verify.judge.budget import chunk_for, per_profile, raised, trials_for_budget, trials_to_decide_at
# --- judge strategies (verify.judge), and checks a distributed run may split by point or by group of points
from verify.judge import (STRATEGIES, AllOf, Asymptotic, Custom, Divergence, Expectation, FigureSweep, Identity, PerGroup, PerPoint,
                          ProbabilityBound, PropertySearch, StatedSearch)
# --- options of the strategies and helpers for custom checks
from verify.judge import Figure, Tol, binomial_test, label_of, point_tests, stat_test
# --- the claim's stated sympy form as the number a check tests (so mutants can be substituted: verify.audit.mutants)
from verify.judge.stated import DERIVED, STATED, stated_slope, stated_value
# --- a verdict over a range of a setting the source leaves open (a step size, a budget, a dimension)
from verify.judge.open_settings import OPEN_VALUES_RUN, OpenSetting, OverOpenSetting, over_open_setting
from verify.judge.rates import Rate, log_allowance  # a stated order's exponent of every parameter it names
# --- tests of orderings (E[a] < E[b]) and of orders (log-log slopes), for custom checks
from verify.judge.orders import (ordering_test, per_trial_slopes, slope_annotation, slope_band_test, slope_bound_test,
                     slope_of_means, slope_test_means, slope_test_paired, slope_upper_test)
# --- coverage ledgers (verify/claims/<paper>/ledger.py): each labelled item of a source and the claims that test it
from verify.audit.coverage import E as LedgerEntry, Ledger

__all__ = [
    # claim model
    "Alternative", "Claim", "Constraint", "Domain", "DomainError", "Kind", "Param", "Paper", "RootCause", "ROLES",
    "Source", "Verdict",
    # evidence
    "Check", "Evidence", "StatTest", "EVERY_VALUE",
    # context and budgets
    "Context", "Profile", "derive_seed", "pick", "chunk_for", "per_profile", "trials_for_budget",
    "trials_to_decide_at", "raised",
    # strategies
    "AllOf", "Asymptotic", "Custom", "Divergence", "Expectation", "FigureSweep", "Identity", "ProbabilityBound",
    "PropertySearch", "PerPoint", "PerGroup", "over_open_setting", "OPEN_VALUES_RUN", "OpenSetting", "OverOpenSetting", "Rate",
    "log_allowance",
    # strategy options and custom-check helpers
    "Figure", "Tol", "binomial_test", "label_of", "point_tests", "stat_test",
    # the stated form as a number
    "STATED", "DERIVED", "stated_value", "stated_slope", "StatedSearch",
    # orderings and orders (verify.judge.orders)
    "ordering_test", "per_trial_slopes", "slope_test_paired", "slope_test_means", "slope_bound_test",
    "slope_of_means", "slope_upper_test", "slope_band_test", "slope_annotation",
    # coverage ledgers (verify.audit.coverage)
    "Ledger", "LedgerEntry",
]

#: what each public name that is a constant (no docstring of its own) is for; tests/test_kit.py checks that every
#: other name of ``__all__`` has a docstring of its own
CONSTANTS = {
    "ROLES": "the parts of a source a claim may read (Claim.role): statement, proof step, remark, caption, table",
    "EVERY_VALUE": "Check.extra key: the check compared an inequality with every recorded value (verify mutants)",
    "OPEN_VALUES_RUN": "Evidence.details key: the combinations of open-setting values a check ran (a list of "
                       "{param: value}), for a check that may run a value and give no test there (OverOpenSetting)",
    "STATED": "predicted=STATED / stated=STATED: the number tested is the claim's own stated sympy form",
    "DERIVED": "Expectation(corrected=DERIVED): the claim's derived sympy form, tested on the stated form's draws "
               "and reported as the corrected form's own verdict",
}
