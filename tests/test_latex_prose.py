"""ASCII math in the prose of a report body is typeset (verify.report.latex.prose), safely; figures hide no series
(verify.report.figures._overlaps, _reference_roles)."""
from __future__ import annotations

import re

from verify.report.figures import _overlaps, _reference_roles
from verify.report.latex import prose
from verify.report.untrusted import math_ok


def _math(s: str) -> list[str]:
    return re.findall(r"\$([^$]+)\$", s)


def test_scripted_symbols_norms_and_roots_become_math():
    out = prose("the remainder W_l - sigma_l u_l v_l^T as O(alpha^2); ||p_f-p_g||_1 < 2; s^{L-1}; sqrt(2/pi)")
    m = _math(out)
    assert "W_{l}" in m and "v_{l}^{T}" in m and "{\\sigma}_{l}" in m and "{\\alpha}^{2}" in m
    assert "\\|p_{f}-p_{g}\\|_{1}" in m and "s^{L-1}" in m and "\\sqrt{2/{\\pi}}" in m
    assert "\\textasciicircum" not in out and "sqrt(" not in out and "\\_" not in out


def test_snake_case_names_read_as_words_and_ids_stay_text():
    assert prose("KL_at_witness") == "KL at witness"
    assert prose("stated_threshold") == "stated threshold"
    assert prose("lhs_(27)") == "lhs (27)"
    out = prose("as vs_tahir2024.eq5")
    assert "$" not in out and "tahir2024" in out


def test_no_double_script_and_no_unknown_control_word():
    for s in ("f_theta_t(x*)", "a_i^2^3", "W_{l}^T_k", "x^{\\input{evil}}", "y_{\\write18{rm}}", "z^{#1}"):
        out = prose(s)
        for m in _math(out):
            assert math_ok(m), (s, m)
            assert not re.search(r"_\{[^{}]*\}_|\^\{[^{}]*\}\^", m), (s, m)
        assert "\\input" not in out.replace("\\textbackslash{}input", "")
        assert "\\write" not in out.replace("\\textbackslash{}write", "")


def _series(hue, role, kind, x, y, **kw):
    return {"_hue": hue, "role": role, "kind": kind, "x": x, "y": y, **kw}


def test_coinciding_points_move_apart_and_distinct_ones_stay():
    a = _series(("d", 2), "Monte Carlo", "points", [0.0, 0.5, 1.0], [0.0, 0.2, 0.5])
    b = _series(("d", 10), "Monte Carlo", "points", [0.0, 0.5, 1.0], [0.0, 0.2, 0.9])
    off, _ = _overlaps([a, b], False, False)
    assert off[id(a)][0] == -off[id(b)][0] != 0
    assert off[id(a)][1] == {0, 1} and off[id(b)][1] == {0, 1}   # the point at x = 1 differs: it stays
    c = _series(("d", 10), "Monte Carlo", "points", [0.0, 0.5, 1.0], [0.9, 0.6, 0.3])
    assert _overlaps([a, c], False, False)[0] == {}


def test_coinciding_curves_alternate_and_a_shared_threshold_is_drawn_once():
    x = [0.0, 0.5, 1.0]
    a = _series(("d", 2), "(153)", "line", x, [0.0, 0.3, 0.5])
    b = _series(("d", 10), "(153)", "line", x, [0.0, 0.3, 0.5])
    c = _series(("d", 10), "other", "line", x, [1.0, 0.9, 0.8])
    _, dashes = _overlaps([a, b, c], False, False)
    assert id(b) in dashes and id(a) not in dashes and id(c) not in dashes
    t1 = _series(("d", 2), "delta", "line", x, [2.0, 2.0, 2.0])
    t2 = _series(("d", 10), "delta", "line", x, [2.0, 2.0, 2.0])
    assert _reference_roles([a, b, t1, t2]) == {"delta"}


def test_relation_scripts_tildes_and_about_are_typeset():
    """``P_<=m`` is one subscript (not an empty script before "m"), a tilde typed after a letter ("y~", or a symbol
    name "ytil") is a tilde accent, "~1,550" (about) a similarity sign, never TeX's raised tilde."""
    out = prose("the coefficients of ||P_<=m v||^2 and ||P_>m v||^2 cross")
    assert "P_{\\le m}" in out and "P_{>m}" in out and "_{\\le }m" not in out
    assert "\\tilde{y}" in prose("log(1/ytil) where log(ytil)") and "ytil" not in prose("log(ytil)")
    assert "\\|\\tilde{y}\\|" in prose("||y~|| = 2")
    assert "\\textasciitilde" not in prose("about ~1,550 repetitions, x ~ y, only '~ eps'")
    assert "\\hat{c}" in prose("after c^ has made half") and "W^{T}" in prose("W^T")   # a hat, a power
    assert "\\hat" not in prose("1/lambda_max(H^∞)")
    for s in ("until it stops", "a tilde ~ alone", "the utility"):
        assert "\\tilde" not in prose(s), s
    assert "\\sqrt{\\log(n/" in prose("the O(sqrt(log(n/(lambda_0 delta))/n)) term")   # a root of two levels
    for s in ("||P_<=m v||^2", "log(1/ytil)", "y~^T H^-1 y~", "~8 CPU min", "O(sqrt(log(n/(lambda_0 delta))/n))"):
        for m in _math(prose(s)):
            assert math_ok(m), (s, m)


def test_curves_that_coincide_on_most_of_their_length_are_dashed():
    """Two runs that collapse to 0 after a few steps lie on each other for most of the axis: the later one is
    dashed so that the one under it shows (they need not coincide at every point)."""
    x = [float(i) for i in range(100)]
    a = _series(("h", 1), None, "line", x, [0.5 if i < 4 else 0.0 for i in range(100)])
    b = _series(("h", 2), None, "line", x, [0.3 if i < 6 else 0.0 for i in range(100)])
    c = _series(("h", 3), None, "line", x, [0.9] * 100)
    _, dashes = _overlaps([a, b, c], False, False)
    assert id(b) in dashes and id(a) not in dashes and id(c) not in dashes
    d = _series(("h", 4), None, "line", x, [0.5 if i < 30 else 0.0 for i in range(100)])
    assert id(d) not in _overlaps([a, d], False, False)[1]   # apart on 30 % of the axis: both show


def test_an_empirical_curve_is_a_curve_not_points_to_move():
    """A quantile function given as 1500 points without error bars is drawn as a curve: it is never spread sideways
    (no "points moved" legend entry for lines), it is dashed where it coincides with another curve."""
    from verify.report.overlap import curve
    x = [i / 200 for i in range(200)]
    a = _series(("n", 1), None, "points", x, [0.1 + 0.0001 * i for i in range(200)], yerr=[0.0] * 200)
    b = _series(("n", 2), None, "points", x, [0.1 + 0.0001 * i for i in range(200)], yerr=[0.0] * 200)
    assert curve(a) and not curve(_series(("n", 3), None, "points", [0, 1], [0, 1]))
    off, dashes = _overlaps([a, b], False, False)
    assert off == {} and id(b) in dashes


def test_a_command_option_keeps_its_two_hyphens():
    """TeX sets "--" in text as an en dash: "--profile P" would read "–profile P"."""
    from verify.report.latex import esc
    assert "-{}-profile" in esc("python -m verify mutants --profile P") and "--" in esc("a – b")
