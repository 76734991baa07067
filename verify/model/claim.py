"""The claim model: what a published statement says, where, and how it is checked.

A :class:`Claim` is a small declaration.  It names its source (file, theorem,
equation), the statement as the source writes it (LaTeX), the assumptions and the
parameter :class:`Domain` they allow, its :class:`Kind`, the stated closed form
(sympy), our own derived form where we have one, notes on how a garbled source was
read, and a *check*: one of the judge strategies of :mod:`verify.judge`, wired to
estimators from :mod:`numerics` and forms from :mod:`derivations`.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Callable, Mapping


class Kind(str, Enum):
    """What a claim asserts; the judge treats each kind differently."""

    SYMBOLIC = "symbolic identity"
    EXACT = "exact finite-size expectation"
    ASYMPTOTIC = "asymptotic expectation"
    BOUND = "inequality / bound"
    PROB_BOUND = "high-probability bound"
    LIMIT = "limit"
    ORDERING = "qualitative ordering"


class Verdict(str, Enum):
    """A claim's verdict.  ``DOES_NOT_EXTEND`` is the verdict of a claim that deliberately reads a statement beyond
    the context its source gives it (``tags=("extension",)``) and fails there: a finding about the reading, never
    an erratum of the source (not counted as refuted; ``--fail-on-refuted`` ignores it).  ``ERROR``: the claim's
    check did not finish (it raised, its predicate was NaN at a point, or it ran over the per-claim time limit):
    no evidence either way, a fault to fix; ``run`` exits with status 3 and no pinned verdict accepts it."""

    CONFIRMED = "confirmed"
    REFUTED = "refuted"
    DOES_NOT_EXTEND = "does not extend"
    INCONCLUSIVE = "inconclusive"
    ERROR = "error"


#: what part of a source a claim reads; the severity of a refutation is derived from it (verify.judge.severity)
ROLES = ("statement", "proof step", "remark", "caption", "table")
#: what the proof gives once a failing proof step is repaired (``Claim.repair``), most serious first
REPAIRS = ("does not follow", "weaker rate", "absorbed")


@dataclass(frozen=True)
class RootCause:
    """One reason for which several claims fail, reported as one erratum with its consequences.

    ``key`` names it (unique across the suite), ``paper`` is the source whose erratum it is (a claim of another
    paper that inherits it, e.g. 000's literal runs against 001's eq. (142), belongs to this group), ``summary``
    says in one sentence what is wrong, and ``corrected`` gives the corrected form (LaTeX) that the group's claims
    verify (their own ``corrected`` verdicts)."""

    key: str
    paper: str
    summary: str
    corrected: str | None = None

    def to_json(self) -> dict:
        return {"key": self.key, "paper": self.paper, "summary": self.summary, "corrected": self.corrected}


class DomainError(ValueError):
    """A parameter point outside what a claim's assumptions allow (one-line message)."""


@dataclass(frozen=True)
class Alternative:
    """A power witness: a plausible wrong version of a claim's statement (an exponent off by 1/2, a constant off by 2,
    the ordering reversed, a term dropped, a condition removed, a bound tightened until it is false somewhere), given
    as the claim's own check built for that version.  ``verify mutants`` judges the claim with ``check`` in place of
    its own, exactly as a run judges it (Holm over a full run's family, replication), and counts the witness as
    rejected when the claim comes out refuted: evidence that the claim's check, at the profile's sizes and trials,
    could have failed.  ``why`` says why a referee would call the alternative plausible.  For a claim with a stated
    sympy form the mutants are generated automatically; a witness is for the claims without one (orderings, figure
    shapes, exponents measured from hitting times, predicates).

    Parameters
    ----------
    name
        the witness's name in the reports.
    check
        the claim's check built for the wrong version.
    why
        why a referee would call it plausible.
    """

    name: str
    check: Any
    why: str = ""


@dataclass(frozen=True)
class Source:
    """Where a statement stands: paper key, theorem/lemma, equation numbers.

    Parameters
    ----------
    paper
        the paper key (the prefix of the claim ids).
    where
        the theorem, lemma, equation or page, e.g. ``"Theorem 3.6, eq. (10)"``.
    """

    paper: str
    where: str  # e.g. "Theorem 3.6, eq. (10); proof in App. B.5, eqs. (91)-(103)"

    @property
    def file(self) -> str:
        """The source file (or citation) its paper declares (``PAPER = Paper(...)``, :mod:`verify.model.paper`)."""
        from verify.model.paper import paper_of

        return paper_of(self.paper).file

    @property
    def title(self) -> str:
        """The paper's title as its package declares it."""
        from verify.model.paper import paper_of

        return paper_of(self.paper).title

    def cite(self) -> str:
        return f"{self.file}: {self.where}"


@dataclass(frozen=True)
class Param:
    """One parameter of a claim's domain: an interval, possibly integer, possibly open.

    Parameters
    ----------
    name
        the parameter's name (the key in a point).
    lower, upper
        the interval's ends (may be infinite).
    lower_open, upper_open
        whether an end is excluded.
    integer
        whether the parameter takes integer values only.
    doc
        what the parameter is, shown when a value is refused.
    """

    name: str
    lower: float = -math.inf
    upper: float = math.inf
    lower_open: bool = False
    upper_open: bool = False
    integer: bool = False
    doc: str = ""

    def validate(self, value: Any) -> float:
        try:
            v = float(value)
        except (TypeError, ValueError):
            raise DomainError(f"{self.name}={value!r} is not a number") from None
        if math.isnan(v):
            raise DomainError(f"{self.name} is NaN")
        if math.isinf(v):
            raise DomainError(f"{self.name}={value} is not finite: a simulation needs a finite point")
        if self.integer and v != int(v):
            raise DomainError(f"{self.name}={value} must be an integer")
        lo_bad = v < self.lower or (self.lower_open and v == self.lower)
        hi_bad = v > self.upper or (self.upper_open and v == self.upper)
        if lo_bad or hi_bad:
            lb = "(" if self.lower_open else "["
            ub = ")" if self.upper_open else "]"
            raise DomainError(
                f"{self.name}={value} is outside the domain {lb}{self.lower:g}, {self.upper:g}{ub}"
                + (f" ({self.doc})" if self.doc else ""))
        return int(v) if self.integer else v


@dataclass(frozen=True)
class Constraint:
    """A joint condition on parameters, with the reason it is needed.

    Parameters
    ----------
    test
        ``test(point) -> bool``: True where the point is allowed.
    message
        the one line shown when a point violates it, with the reason.
    """

    test: Callable[[Mapping[str, float]], bool]
    message: str  # shown when violated, e.g. "n must exceed 2: E[1/chi^2_n] = 1/(n-2) diverges"


@dataclass(frozen=True)
class Domain:
    """The parameter domain a claim's assumptions allow.

    Parameters
    ----------
    params
        the :class:`Param` s, one per parameter.
    constraints
        the joint :class:`Constraint` s.
    """

    params: tuple[Param, ...]
    constraints: tuple[Constraint, ...] = ()

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.params)

    def validate(self, point: Mapping[str, Any]) -> dict[str, float]:
        """Return a cleaned copy of ``point`` or raise :class:`DomainError` (one line)."""
        known = {p.name: p for p in self.params}
        unknown = sorted(set(point) - set(known))
        if unknown:
            raise DomainError(f"unknown parameter(s) {', '.join(unknown)}; this claim takes {', '.join(known)}")
        out = {k: known[k].validate(v) for k, v in point.items()}
        missing = [k for k in known if k not in out]
        if missing:
            raise DomainError(f"missing parameter(s) {', '.join(missing)}")
        for c in self.constraints:
            if not c.test(out):
                raise DomainError(c.message)
        return out

    def strategy(self, bounds: Mapping[str, tuple[float, float]] | None = None, fixed: Mapping[str, Any] | None = None):
        """A hypothesis strategy of points (dicts) over exactly this domain.

        Every parameter is drawn from its interval: closed finite endpoints are always among the
        values tried (``st.just`` alternatives, which hypothesis tries first and shrinks towards),
        open endpoints are excluded, integer parameters are integers, and every joint constraint
        is a filter.  ``bounds`` narrows a parameter with an infinite end to a finite search range
        (a float search over [0, inf) would otherwise spend its examples near 1e300); the ends of
        such a box are searched but not favoured.  ``fixed`` pins parameters.

        >>> d = Domain((Param("n", 3, 10, integer=True), Param("s", 0, 1, upper_open=True)))
        >>> from hypothesis import find
        >>> find(d.strategy(), lambda p: p["n"] > 5)   # the closed end 10 is tried first
        {'n': 10, 's': 0.0}
        """
        from hypothesis import strategies as st

        bounds, fixed = dict(bounds or {}), dict(fixed or {})
        unknown = sorted((set(bounds) | set(fixed)) - set(self.names))
        if unknown:
            raise ValueError(f"unknown parameter(s) {', '.join(unknown)} in a search of domain {self.names}")
        fields = {}
        for p in self.params:
            if p.name in fixed:
                fields[p.name] = st.just(p.validate(fixed[p.name]))
                continue
            lo, hi, lo_open, hi_open = p.lower, p.upper, p.lower_open, p.upper_open
            if p.name in bounds:
                blo, bhi = bounds[p.name]
                if blo > lo or (blo == lo and not lo_open):
                    lo, lo_open = blo, blo == p.lower and p.lower_open
                if bhi < hi or (bhi == hi and not hi_open):
                    hi, hi_open = bhi, bhi == p.upper and p.upper_open
            # the domain's own closed finite ends (not the ends of a search box given in ``bounds``: those
            # would pin a shrunk counterexample to a box corner)
            ends = [e for e, open_ in ((p.lower, p.lower_open), (p.upper, p.upper_open))
                    if math.isfinite(e) and not open_ and lo <= e <= hi]
            if p.integer:
                ilo = None if not math.isfinite(lo) else math.floor(lo) + 1 if lo_open and lo == int(lo) else math.ceil(lo)
                ihi = None if not math.isfinite(hi) else math.ceil(hi) - 1 if hi_open and hi == int(hi) else math.floor(hi)
                body = st.integers(ilo, ihi)
                ends = [int(e) for e in ends]
            else:
                body = st.floats(lo if math.isfinite(lo) else None, hi if math.isfinite(hi) else None,
                                 exclude_min=lo_open and math.isfinite(lo), exclude_max=hi_open and math.isfinite(hi),
                                 allow_nan=False, allow_infinity=False)
                ends = [float(e) for e in ends]
            fields[p.name] = st.one_of(*[st.just(e) for e in ends], body) if ends else body
        pts = st.fixed_dictionaries(fields)
        if self.constraints:
            pts = pts.filter(lambda q: all(c.test(q) for c in self.constraints))
        return pts

    def uniform(self, rng, n: int, bounds: Mapping[str, tuple[float, float]] | None = None,
                max_tries: int | None = None) -> tuple[list[dict], dict]:
        """``n`` points drawn uniformly from the domain (``rng`` a :class:`random.Random`), for measuring what
        fraction of it a statement fails on.  Each parameter is uniform on its interval (integers uniform on
        theirs); an infinite end is cut by ``bounds`` (the same box a property search uses) or, without one,
        at lower + 10 / upper - 10 (0 +- 10 for the whole line).  Joint constraints by rejection.  Returns the
        points and the box actually drawn from (name -> [lo, hi]) with the acceptance rate, to be recorded
        beside the fraction (a fraction is of this box of the domain).

        >>> import random
        >>> pts, box = Domain((Param("k", 1, 3, integer=True), Param("s", 0))).uniform(random.Random(0), 4)
        >>> box["box"]["s"], {p["k"] for p in pts} <= {1, 2, 3}
        ([0.0, 10.0], True)
        """
        bounds = dict(bounds or {})
        box = {}
        for p in self.params:
            lo, hi = p.lower, p.upper
            blo, bhi = bounds.get(p.name, (-math.inf, math.inf))
            lo, hi = max(lo, blo), min(hi, bhi)
            if not math.isfinite(lo) and not math.isfinite(hi):
                lo, hi = -10.0, 10.0
            elif not math.isfinite(hi):
                hi = lo + 10.0
            elif not math.isfinite(lo):
                lo = hi - 10.0
            box[p.name] = [float(lo), float(hi)]
        out, tries = [], 0
        limit = max_tries or 200 * n
        while len(out) < n and tries < limit:
            tries += 1
            q = {}
            for p in self.params:
                lo, hi = box[p.name]
                if p.integer:
                    ilo = math.floor(lo) + 1 if p.lower_open and lo == p.lower and lo == int(lo) else math.ceil(lo)
                    ihi = math.ceil(hi) - 1 if p.upper_open and hi == p.upper and hi == int(hi) else math.floor(hi)
                    q[p.name] = rng.randint(ilo, ihi)
                else:
                    v = rng.uniform(lo, hi)
                    while (p.lower_open and v == p.lower) or (p.upper_open and v == p.upper):
                        v = rng.uniform(lo, hi)
                    q[p.name] = v
            if all(c.test(q) for c in self.constraints):
                out.append(q)
        return out, {"box": box, "acceptance": len(out) / max(tries, 1)}

    def depth(self, point: Mapping[str, float], box: Mapping[str, list] | None = None) -> float:
        """How deep inside the domain a point lies: the least distance to a finite closed or open end of a
        parameter's interval, as a fraction of that parameter's range (0 at an endpoint such as sigma = 0 or
        theta = pi/2; 0.5 at the centre).  Integer parameters with fewer than three values count as interior.
        A witness of a failure is the more convincing the deeper it lies (away from degenerate ends)."""
        best = 0.5
        for p in self.params:
            if p.name not in point:
                continue
            lo, hi = (box or {}).get(p.name, (p.lower, p.upper))
            if not (math.isfinite(lo) and math.isfinite(hi)) or hi <= lo:
                continue
            if p.integer and hi - lo < 2:
                continue
            v = float(point[p.name])
            ends = [e for e in (p.lower, p.upper) if math.isfinite(e)]
            if not ends:
                continue
            best = min(best, min(abs(v - e) for e in ends) / (hi - lo))
        return best

    def describe(self) -> str:
        parts = []
        for p in self.params:
            lb = "(" if p.lower_open else "["
            ub = ")" if p.upper_open else "]"
            kind = "integer " if p.integer else ""
            parts.append(f"{p.name} {kind}in {lb}{p.lower:g}, {p.upper:g}{ub}")
        parts += [c.message for c in self.constraints]
        return "; ".join(parts)


@dataclass
class Claim:
    """A published statement, as its source states it, with the check that judges it.

    Attributes
    ----------
    id:          ``<paper>.<label>``, e.g. ``tahir2024.thm3.6.asymptotic``.
    kind:        what is asserted (:class:`Kind`).
    source:      file and theorem / equation numbers.
    statement:   the statement as stated, in LaTeX.
    assumptions: the assumptions in words.
    domain:      the parameter domain the assumptions allow.
    check:       a judge strategy from :mod:`verify.judge` (has ``run(claim, ctx)``).
    stated:      the stated closed form (sympy), if there is one.
    derived:     our own derived form (sympy), if we have one.
    corrected:   the corrected form (LaTeX) when our derivation finds one; it is a claim of ours and
                 gets its own verdict from the checks of our derivation (target 'derived',
                 ``refutes=False``), printed as a candidate unless confirmed.
    notes:       how the source was read, ambiguities, garbling.
    tags:        ``"extension"`` marks a claim that deliberately reads a statement beyond its
                 context: its failure gets the verdict "does not extend", never "refuted" (no erratum).
    role:        what part of the source the claim reads (:data:`ROLES`): ``"statement"`` (a theorem, lemma,
                 equation or result stated as such), ``"proof step"`` (a displayed step or witness of a proof),
                 ``"remark"`` (a sentence of the running text, the abstract or a discussion), ``"caption"`` (a
                 figure and its caption) or ``"table"``.  The severity of a refutation is derived from it
                 (:mod:`verify.judge.severity`).
    holds_by:    for a proof step: the ids of the claims that show the stated result itself holds (a failing
                 step of a true result is a proof-step erratum, and the report names them beside it).
    corrected_form: the *minimal* correction of the printed form, as sympy in the symbols of ``stated``, when our
                 ``derived`` form is not it (it adds a term, a target accuracy, a sharper constant): the typo rule of
                 :mod:`verify.judge.severity` compares the printed form with it (default: ``derived``), so that a
                 class never depends on what our corrected form adds (log||y|| for log||y||^-1, not log(||y||/eps)).
    repair:      for a proof step, what the proof gives once the step is repaired, when the shape of the change
                 cannot tell (:data:`REPAIRS`): ``"absorbed"`` (the stated result, the slip absorbed by the O(.) or a
                 constant), ``"weaker rate"`` (a weaker rate or dependence than stated) or ``"does not follow"`` (the
                 result holds by its own claims, not by this proof); None: derived by the severity rule.
    root_cause:  a :class:`RootCause` shared by the claims refuted for one reason (across papers too):
                 they are reported as one erratum with its consequences.
    decided_at:  the lowest profile whose confirmation is trusted (default ``"quick"``).  A claim whose
                 quick grid agrees with the stated form at too few seeds (measured by ``verify
                 stability``) says ``"standard"``: below that profile a confirmation is reported as
                 inconclusive ("not decided at quick"), so the pinned quick verdict does not depend on
                 the seed; a replicated refutation is reported as it is at every profile.
    stated_bound: ``"upper"`` or ``"lower"`` when ``stated`` is a bound on the simulated quantity rather than its
                 value (``verify mutants`` then sets aside the mutants that only weaken the bound: they are true
                 whenever the stated bound is, so no test could refute them).
    stated_order: True when ``stated`` is an order of growth, O(stated): constant factors carry no meaning there, so
                 ``verify mutants`` counts a mutant that only rescales the form by a constant as equivalent.  A tuple
                 of symbol names says in which variables the order is asymptotic, each tending to oo unless written
                 ``"name->0"`` (``("m", "kappa->0")``: as m -> oo, kappa -> 0); a factor in the other symbols alone is
                 then a constant on any finite grid of them, and a mutant at least a constant times the stated
                 order along every path into that limit is a weaker O-statement.
    stated_at:   values the statement itself gives to symbols of ``stated`` (``{"L": 1}`` for "(5) at L = 1";
                 ``{"s_S": 1}`` in a setting of unit teachers): ``verify mutants`` counts a mutant that changes only
                 the dependence on these as equivalent on the claim's domain.
    stated_limit: for a limit statement (``Kind.LIMIT``), symbols of ``stated`` that tend to a value in the limit
                 the statement is about (``{"G_0": "yTy"}`` in liu2019.thm1: the initial squared gradient tends to
                 y_Q^T y_Q as kappa -> 0): ``verify mutants`` counts a mutant equal to the stated form there as the
                 same limit statement (the two differ by a term that vanishes in the limit).
    power:       :class:`Alternative` power witnesses: plausible wrong versions of the statement, each as the claim's
                 check built for it; ``verify mutants`` shows the check rejects them (for claims with no sympy form
                 to mutate).  A confirmed claim with neither a sympy form nor a witness has untested power, and the
                 report says so.
    unresolved_term: one term of a stated sum that the data cannot resolve anywhere the statement applies and this
                 machine can simulate (the notes say why, with the measurement: liu2019.eq6's second term, benchmarks/
                 README.md §13).  A declaration, not a computation: ``verify mutants`` counts a mutant that keeps
                 every other term of the sum, changes only this one, stays at least those other terms at every point
                 the check reads, and is not refuted, as "equivalent on the tested domain (declared by the claim)",
                 shown as such; a mutant of any other term is judged as usual.
    construction: one sentence saying why the claim's check is *a check of our own construction*, true whatever the
                 source says ("the stated value is computed by the same code as the estimate", "an identity of our
                 own derivation", "a bound we proved"), or None.  Its verdict is reported as it comes out (a
                 confirmation stays "confirmed"), but a confirmed claim that carries it is counted apart from the
                 confirmations of the source (results.json ``meta.counts["confirmed (own construction)"]``): a
                 perturbed formula it rejects says nothing about the source when the stated one cannot fail.
    cost:        optional ``cost(point, trials) -> (bytes, seconds)`` of the check at a user point (``--at``), used
                 instead of the generic estimate to refuse or warn before simulating.
    """

    id: str
    kind: Kind
    source: Source
    statement: str
    assumptions: str
    domain: Domain
    check: Any
    stated: Any = None
    derived: Any = None
    corrected: str | None = None
    notes: str = ""
    tags: tuple[str, ...] = field(default_factory=tuple)
    role: str | None = None   # None: a statement, not declared (every refuted claim declares its role)
    holds_by: tuple[str, ...] = ()
    corrected_form: Any = None   # the minimal correction of ``stated`` (sympy) when ``derived`` is not it
    repair: str | None = None    # a proof step: what the repaired proof gives (REPAIRS); None: derived
    root_cause: RootCause | None = None
    decided_at: str = "quick"
    stated_bound: str | None = None
    stated_order: bool | tuple[str, ...] = False
    stated_at: dict = field(default_factory=dict)
    stated_limit: dict = field(default_factory=dict)
    unresolved_term: Any = None
    power: tuple = ()   # power witnesses (Alternative): plausible wrong statements the check must reject
    #: optional ``cost(point, trials) -> (bytes, seconds)`` of the check at a user point (``--at``): what
    #: :func:`verify.judge.point_cost` uses instead of its generic estimate to refuse or warn before simulating
    cost: Any = None
    construction: str | None = None   # why the check is true by construction (a check of our own construction)

    def __post_init__(self) -> None:
        from verify.model.context import PROFILES

        if self.stated_bound not in (None, "upper", "lower"):
            raise ValueError(f"claim {self.id!r}: stated_bound must be 'upper', 'lower' or None, not {self.stated_bound!r}")

        if self.role is not None and self.role not in ROLES:
            raise ValueError(f"claim {self.id!r}: role {self.role!r} is not one of {', '.join(ROLES)}")
        if self.repair is not None and (self.repair not in REPAIRS or self.role != "proof step"):
            raise ValueError(f"claim {self.id!r}: repair {self.repair!r} needs role='proof step' and one of "
                             + ", ".join(REPAIRS))
        if isinstance(self.holds_by, str):
            self.holds_by = (self.holds_by,)
        if self.holds_by and self.role != "proof step":
            raise ValueError(f"claim {self.id!r}: holds_by names the claims that show a result holds despite a "
                             "failing proof step; it needs role='proof step'")
        if self.root_cause is not None and not isinstance(self.root_cause, RootCause):
            raise ValueError(f"claim {self.id!r}: root_cause must be a RootCause (key, paper, summary, corrected)")
        if self.decided_at not in PROFILES:
            raise ValueError(f"claim {self.id!r}: decided_at {self.decided_at!r} is not a profile ({', '.join(PROFILES)})")
        if self.construction is not None and (not isinstance(self.construction, str) or not self.construction.strip()):
            raise ValueError(f"claim {self.id!r}: construction must be a sentence saying why the check is true by "
                             f"construction (or None), not {self.construction!r}")
        for name in ("statement", "assumptions", "notes", "corrected", "corrected_form"):
            text = getattr(self, name, None)
            bad = sorted({ch for ch in text if ord(ch) < 32 and ch != "\n"}) if isinstance(text, str) else []
            if bad:   # "\frac" or "\text" in a string that is not raw: a form feed or a tab where TeX was meant
                raise ValueError(f"claim {self.id!r}: {name} holds the control character(s) "
                                 f"{', '.join(repr(ch) for ch in bad)} (a LaTeX \\frac, \\text or \\theta in a "
                                 f"string that is not raw?): write it as r\"...\"")
        paper = self.id.split(".", 1)[0]
        if paper != self.source.paper:
            raise ValueError(f"claim id {self.id!r} does not start with its paper key {self.source.paper!r}")

    @property
    def paper(self) -> str:
        return self.source.paper

    @property
    def reads(self) -> str:
        """The claim's role, "statement" unless declared otherwise."""
        return self.role or "statement"

    @property
    def own_construction(self) -> bool:
        """True for a check of our own construction (``construction`` given): its confirmation is counted apart."""
        return self.construction is not None

    @property
    def extension(self) -> bool:
        """True for a deliberate reading beyond the source's context (its failure is no erratum)."""
        return "extension" in self.tags
