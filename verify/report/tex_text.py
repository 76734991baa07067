"""LaTeX text primitives of the reports: escaped free text (:func:`esc`), ASCII math in prose typeset safely
(:func:`prose`), formulas as display or inline math that is never shrunk (:func:`display`, :func:`inline_math`), a
parameter's name and value in the paper's notation (:func:`tex_name`, :func:`tex_num`, :func:`tex_point`).

Every formula passes :func:`verify.report.untrusted.math_ok` (whitelisted control words only) before it is set as
math; anything else is escaped text (:func:`verbatim`).  :mod:`verify.report.latex` builds the report from these.
"""
from __future__ import annotations

import math
import re

from verify.report.referee import greek
from verify.report.tables import one_line, short
from .untrusted import math_ok, strip_controls

_ESC = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_\allowbreak{}",
        "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}", "<": r"$<$", ">": r"$>$",
        "|": r"\textbar{}",
        # a long sympy form or number list may break after an operator instead of running past the margin
        "*": r"*\allowbreak{}", "/": r"/\allowbreak{}", ",": r",\allowbreak{}", "=": r"=\allowbreak{}"}
_UNICODE = {"θ": r"$\theta$", "σ": r"$\sigma$", "γ": r"$\gamma$", "λ": r"$\lambda$", "α": r"$\alpha$",
            "β": r"$\beta$", "≤": r"$\le$", "≥": r"$\ge$", "→": r"$\to$", "∞": r"$\infty$", "—": "---",
            "–": "--", "χ": r"$\chi$", "²": r"$^2$", "³": r"$^3$", "−": "-", "…": r"\dots{}", "π": r"$\pi$",
            "δ": r"$\delta$", "ε": r"$\varepsilon$", "ϵ": r"$\epsilon$", "∈": r"$\in$", "≠": r"$\neq$", "±": r"$\pm$", "·": r"$\cdot$",
            "×": r"$\times$", "ν": r"$\nu$", "μ": r"$\mu$", "η": r"$\eta$", "Φ": r"$\Phi$", "√": r"$\surd$",
            "≈": r"$\approx$", "’": "'", "‘": "`", "“": "``", "”": "''", "‖": r"$\|$", "⁺": r"$^+$", "∫": r"$\int$",
            "Γ": r"$\Gamma$", "ψ": r"$\psi$", "φ": r"$\phi$", "⊥": r"$\perp$", "≽": r"$\succeq$", "ℓ": r"$\ell$",
            "§": r"$\S$", "∑": r"$\sum$", "κ": r"$\kappa$", "ξ": r"$\xi$", "ρ": r"$\rho$", "τ": r"$\tau$",
            "ω": r"$\omega$", "Δ": r"$\Delta$", "∂": r"$\partial$", "∇": r"$\nabla$", "⊤": r"$\top$",
            "ᵀ": r"$^\top$", "≪": r"$\ll$", "≫": r"$\gg$", "∼": r"$\sim$", "≲": r"$\lesssim$", "≳": r"$\gtrsim$",
            "↛": r"$\not\to$", "✔": "", "✘": "", "₀": r"$_0$", "₁": r"$_1$", "₂": r"$_2$", "ᵢ": r"$_i$",
            "⌈": r"$\lceil$", "⌉": r"$\rceil$", "⌊": r"$\lfloor$", "⌋": r"$\rfloor$", "∘": r"$\circ$",
            "⊗": r"$\otimes$", "⊙": r"$\odot$", "∝": r"$\propto$", "≡": r"$\equiv$", "⇒": r"$\Rightarrow$",
            "⟨": r"$\langle$", "⟩": r"$\rangle$", "Σ": r"$\Sigma$", "Ω": r"$\Omega$", "Θ": r"$\Theta$",
            "Λ": r"$\Lambda$", "Π": r"$\Pi$", "ζ": r"$\zeta$", "ι": r"$\iota$", "ϕ": r"$\varphi$", "Ψ": r"$\Psi$",
            "\u00a0": "~", "é": r"\'e", "è": r"\`e", "ö": r"\"o", "ü": r"\"u", "ä": r"\"a", "°": r"$^\circ$",
            "¹": r"$^1$", "⁻": r"$^-$", "½": r"$\frac12$", "∉": r"$\notin$", "⊂": r"$\subset$", "⊆": r"$\subseteq$",
            "∪": r"$\cup$", "∩": r"$\cap$", "∀": r"$\forall$", "∃": r"$\exists$", "¬": r"$\neg$", "∧": r"$\wedge$",
            "∨": r"$\vee$", "⊕": r"$\oplus$", "†": r"$^\dagger$", "′": "'", "″": "''", "√̅": r"$\surd$"}
_GREEK = {"alpha", "beta", "gamma", "delta", "epsilon", "eta", "theta", "kappa", "lambda", "mu", "nu", "xi", "rho",
          "sigma", "tau", "phi", "chi", "psi", "omega", "zeta", "iota", "Gamma", "Delta", "Theta", "Lambda", "Sigma",
          "Phi", "Psi", "Omega", "Pi", "Xi"}


def esc(s) -> str:
    """Free text for LaTeX: specials escaped, known symbols as math, control characters removed, anything else
    as '?'.  No control word of the input survives: every backslash becomes ``\\textbackslash{}``."""
    s = strip_controls(s)
    out = re.sub(r"-(?=-)", "-{}", "".join(_ESC.get(ch, ch) for ch in s))   # an option (--profile), not a dash
    out = "".join(_UNICODE.get(ch, ch) for ch in out)
    out = re.sub(r"(?<!\\)\$\$", "", out)   # two adjacent inline symbols: one math group
    out = re.sub(r"\.(?=[A-Za-z])", r".\\allowbreak{}", out)   # a long dotted id may break after a dot
    return "".join(ch if ord(ch) < 128 else "?" for ch in out)


# ------------------------------------------------------------------------ ASCII math in prose, as math
# A reason, a counterexample's name or an erratum's sentence is prose that may hold the ASCII math of its author
# ("W_l - sigma_l u_l v_l^T", "||p_f-p_g||_1", "e^{-sigma^2/2}", "sqrt(2/pi)", "KL_at_witness"): :func:`prose`
# sets each scripted symbol, norm and square root as math and a snake_case name as words, and escapes the rest
# (:func:`esc`).  The math it writes is built token by token from letters, digits, operators and a fixed set of
# control words, and checked by :func:`math_ok`; anything else stays escaped text.
_GREEK_CH = "".join(ch for ch, t in _UNICODE.items() if len(ch) == 1 and re.fullmatch(r"\$\\[A-Za-z]+\$", t)
                    and "α" <= ch.lower() <= "ω" or ch in "ΓΔΘΛΞΠΣΦΨΩ")
_BIG = {"sum": r"\sum", "int": r"\int", "prod": r"\prod", "lim": r"\lim", "min": r"\min", "max": r"\max",
        "sup": r"\sup", "inf": r"\inf", "log": r"\log", "exp": r"\exp", "sqrt": r"\sqrt", "perp": r"\perp",
        "cos": r"\cos", "sin": r"\sin", "arctan": r"\arctan", "arccos": r"\arccos", "det": r"\det", "tr": r"\mathrm{tr}"}
#: two-part snake_case names read as words when their second part is one of these or a longer lowercase word
_CONNECTIVES = {"at", "in", "of", "on", "to", "by", "vs", "and", "or", "over", "for", "per", "from"}
_SUBSCRIPT_WORDS = {"min", "max", "op", "par", "perp", "row", "sc", "lt", "ft", "end", "lhs", "rhs", "sup", "inf",
                    "col", "tr", "top", "bot", "new", "old", "KL", "BL"}
_PART = r"[A-Za-z0-9" + _GREEK_CH + r"]+"
_SNAKE = re.compile(r"(?<![\w\\{^])(?<!\w\.)(" + _PART + r"(?:_" + _PART + r")+)(?![\w{(]|\.\w)")   # not in a dotted id
_SCRIPT = (r"(?:[_^](?:\{[^{}$\\]{1,40}\}|\([^()\s$\\]{1,14}\)|[A-Za-z0-9]++|[" + _GREEK_CH + r"∞]|[+*]|-?\d+|-(?![\w.])))")
#: a letter with a tilde as authors type it in ASCII ("y~", and a symbol name "ytil"/"ytilde"): \tilde{y}
_TILDE = r"(?<![\w\\~])[A-Za-z](?:~|til(?:de)?(?![A-Za-z]))(?![\w~])"
#: a letter with a hat typed after it and nothing to raise ("c^ has made"): \hat{c}
_HAT = r"(?<![\w\\^])[A-Za-z]\^(?=\s|$|[.,;:)\]'])"
_ATOM = re.compile(r"(?<![\w\\])(?<!\w\.)((?:[A-Za-z]bar|[A-Za-z]++[0-9]*+|[" + _GREEK_CH + r"]|\d+(?=\^))" + _SCRIPT + r"++(?!\.\w)"
                   r"|(?<=\))" + _SCRIPT + r"+"
                   r"|‖[^‖\s][^‖]{0,40}?‖" + _SCRIPT + r"*"
                   r"|[A-Za-z]bar\b|" + _TILDE + _SCRIPT + r"*|" + _HAT +
                   r"|sqrt\((?:[^()]|\((?:[^()]|\([^()]{0,20}\)){0,30}\)){1,40}\))")
_MATH_TOKEN = re.compile(_TILDE + "|" + _HAT + r"|[A-Za-z]bar(?![A-Za-z])|[A-Za-z]+|\d+(?:\.\d+)?|->|<=|>=|\s+|.")


def _snake_words(m: re.Match) -> str:
    parts = m.group(1).split("_")
    if len(parts) >= 3 or (len(parts[0]) >= 2 and (parts[1] in _CONNECTIVES or (
            len(parts[1]) >= 3 and parts[1].isalpha() and parts[1].islower() and parts[1] not in _SUBSCRIPT_WORDS))):
        return " ".join(parts)
    return m.group(0)


def _ascii_math(t: str) -> str | None:
    """A short ASCII formula as LaTeX math (without dollars), or None when it holds anything else."""
    out, scripted = [], False
    part = r"([A-Za-z0-9" + _GREEK_CH + r"]+)"
    t = re.sub(r"_" + part + "_" + part, r"_{\1_\2}", t)   # f_theta_t: f_{theta_t}, not a double subscript
    t = re.sub(r"([_^])\(([^()]*)\)", r"\1{\2}", t)   # n^(3/2): the bracket groups the script
    t = re.sub(r"([_^])(-\d+(?:\.\d+)?)", r"\1{\2}", t)   # lambda^-1
    t = re.sub(r"\^inf(?![A-Za-z])", "^∞", t)
    # P_<=m, P_>m: a relation and what follows it form one script, not an empty script before "m"
    t = re.sub(r"([_^])(<=|>=|<|>|≤|≥)([A-Za-z0-9]+)", r"\1{\2\3}", t)
    toks = _MATH_TOKEN.findall(t)
    for i, tok in enumerate(toks):
        nxt = toks[i + 1] if i + 1 < len(toks) else ""
        if tok in ("_", "^"):
            if nxt in ("{", "(") or not nxt:
                out.append(tok)
                if nxt == "(":   # W_(l+1): the bracket as a subscript group
                    out.append("{")
                    scripted = True
            else:
                out.append(tok + "{")
                out.append("\x00")   # close after the next token
            continue
        if tok == ")" and scripted:
            out.append(")}")
            scripted = False
            continue
        if re.fullmatch(_TILDE, tok) or re.fullmatch(_HAT, tok):
            w = ("\\tilde{" if tok[1:2] != "^" else "\\hat{") + tok[0] + "}"
        elif re.fullmatch(r"[A-Za-z]bar", tok):
            w = r"\bar{" + tok[0] + "}"
        elif tok.endswith("bar") and tok[:-3] in _GREEK:   # thetabar
            w = "\\bar{\\" + tok[:-3] + "}"
        elif tok == "−":
            w = "-"
        elif tok.isalpha() and tok.isascii():
            w = _BIG.get(tok) or (tok if len(tok) == 1 else r"\mathrm{" + tok + "}")
            if _BIG.get(tok) and nxt.isalnum():
                w += " "
        elif re.fullmatch(r"\d+(?:\.\d+)?", tok) or tok in "+-/=(),.[]'|<>*{}" or tok.isspace():
            w = " " if tok.isspace() else tok
        elif tok == "->":
            w = r"\to "
        elif tok in ("<=", ">="):
            w = {"<=": r"\le ", ">=": r"\ge "}[tok]
        elif tok == "‖":
            w = r"\|"
        elif tok in _UNICODE and re.fullmatch(r"\$[^$]+\$", _UNICODE[tok]):
            w = "{" + _UNICODE[tok].strip("$") + "}"
        else:
            return None
        if out and out[-1] == "\x00":
            out[-1] = w + "}"
        else:
            out.append(w)
    if scripted or "\x00" in out:
        return None
    m = "".join(out)
    if _double_script(m):
        return None
    return m if math_ok(m) else None


def _double_script(m: str) -> bool:
    """Whether a formula puts two subscripts (or two superscripts) on one base: TeX stops on it."""
    depth, last = 0, [None]
    i = 0
    while i < len(m):
        ch = m[i]
        if ch == "{":
            depth += 1
            last.append(None)
        elif ch == "}":
            depth -= 1
            last.pop()
            if depth < 0:
                return True
        elif ch in "_^":
            if last[-1] and ch in last[-1]:
                return True
            last[-1] = (last[-1] or "") + ch
            # skip the script's argument (a group or one token)
            if i + 1 < len(m) and m[i + 1] == "{":
                d, j = 0, i + 1
                while j < len(m):
                    d += {"{": 1, "}": -1}.get(m[j], 0)
                    if d == 0:
                        break
                    j += 1
                i = j + 1
                continue
            i += 2
            continue
        elif not ch.isspace():
            last[-1] = None
        i += 1
    return False


def prose(s) -> str:
    """Prose of a results document for the report's body: Greek names as letters, scripted symbols
    (``W_l``, ``v_l^T``, ``s^{L-1}``), norms (``||f||_1``) and square roots as math, snake_case names
    (``KL_at_witness``) as words, the rest escaped (:func:`esc`)."""
    from verify.report.referee import greek
    s = greek(" ".join(strip_controls(s).split()))
    s = re.sub(r"(?<![A-Za-z])eps(?![A-Za-z])", "ε", s).replace("||", "‖")
    s = re.sub(r"(?<![\w~])~(?=\s?\d|\s)", "∼", s)   # "~1,550 repetitions", "x ~ y", "'~ eps": about
    s = re.sub(r"(?<=[A-Za-z0-9]{2})_(?=[(\[|])", " ", s)   # lhs_(27), L1_at_|a-b|: a word before a bracket
    s = _SNAKE.sub(_snake_words, s)
    out, last = [], 0
    for m in _ATOM.finditer(s):
        tok = m.group(0)
        if tok.startswith("sqrt("):
            inner = _ascii_math(tok[5:-1])
            tex = None if inner is None else r"\sqrt{" + inner + "}"
        else:
            tex = _ascii_math(tok)
        if tex is None:
            continue
        out += [esc(s[last:m.start()]), "$" + tex + "$"]
        last = m.end()
    out.append(esc(s[last:]))
    return "".join(out)


def _safe_math(m: str) -> str:
    # commands outside amsmath/amssymb that sympy or authors may emit
    m = " ".join(strip_controls(m).split())
    m = m.replace("\\operatorname{", "\\mathrm{")
    return "".join(_UNICODE.get(ch, ch).strip("$") if ord(ch) >= 128 else ch for ch in m)


def verbatim(m: str) -> str:
    """A formula :func:`math_ok` refuses, as escaped typewriter text (it is shown, not typeset)."""
    return "\\texttt{" + esc(" ".join(strip_controls(m).split())) + "}"


def display(m: str | None) -> str:
    """A displayed formula at body size: centred when it fits the line, else set flush left as display-style math
    that may break after its relations and operators (a formula is never shrunk below body size)."""
    if not m:
        return "---"
    if not math_ok(m):
        return "\\begin{flushleft}" + verbatim(m) + "\\end{flushleft}"
    f = _safe_math(m)
    return ("\\sbox0{$\\displaystyle " + f + "$}\\ifdim\\wd0>\\linewidth{\\par\\raggedright$\\displaystyle " + f
            + "$\\par}\\else\\[\\usebox0\\]\\fi")


def tex_name(k: str) -> str:
    """A parameter name as math (``gamma`` -> ``\\gamma``, ``T_lt`` -> ``T_{\\mathrm{lt}}``); a name that is not a
    symbol (``W1_upper_bound``, ``dR/dgamma at 0+``) as text."""
    if not re.fullmatch(r"[A-Za-z]+(_[A-Za-z0-9]+)?", str(k)) or (
            str(k).partition("_")[0] not in _GREEK | {"lam"} and len(str(k).partition("_")[0]) > 1):
        return "\\text{" + esc(k) + "}"
    base, _, sub = str(k).partition("_")
    if base in _GREEK:
        b = "\\" + base
    elif base == "lam":
        b = "\\lambda"
    elif len(base) == 1 and base.isalpha():
        b = base
    else:
        b = "\\mathrm{" + re.sub(r"[^A-Za-z0-9]", "", base) + "}"
    if sub:
        b += "_{\\mathrm{" + re.sub(r"[^A-Za-z0-9]", "", sub) + "}}" if len(sub) > 1 else "_{" + sub + "}"
    return b


def tex_num(x, digits: int = 3) -> str:
    if isinstance(x, bool):
        return "\\mathrm{" + str(x) + "}"
    if isinstance(x, (int, float)):
        if isinstance(x, float) and not math.isfinite(x):
            return "\\infty" if x > 0 else ("-\\infty" if x < 0 else "\\mathrm{NaN}")
        s = short(x, digits)
        if "e" in s:
            mant, ex = s.split("e")
            return f"{mant}\\times 10^{{{int(ex)}}}"
        return s
    return "\\text{" + esc(one_line(x, 40)) + "}"


def tex_point(pt: dict | None, n: int = 6) -> str:
    """A parameter point as inline math: ``\\(\\gamma = 0.5,\\ \\sigma = 1\\)`` (at most ``n`` coordinates)."""
    if not pt:
        return "---"
    items = [(k, v) for k, v in pt.items() if not isinstance(v, (list, tuple, dict))]
    more = len(items) > n
    # one math group per coordinate: a line may break between them
    def one(k, v):
        name = tex_name(k)
        name = esc(k) if name.startswith("\\text{") else f"\\({name}\\)"
        if isinstance(v, (int, float)):
            return f"{name} \\(= {tex_num(v)}\\)"
        return f"{name} = " + esc(one_line(v, 40))
    if not items:
        return "(a design: see the claim's checks)"
    return ", ".join(one(k, v) for k, v in items[:n]) + (", \\dots" if more else "")


def cols(*fr: float) -> str:
    """Column specification of paragraph columns taking the given fractions of the line (their sum <= 1)."""
    return "".join(f"P{{\\dimexpr {f}\\linewidth-2\\tabcolsep\\relax}}" for f in fr)


def inline_math(m: str | None, style: str = "\\displaystyle") -> str:
    """A formula at the size of the text around it, never shrunk: whole when it fits the line, else as inline math
    that may break after its relations and operators; a formula the whitelist refuses as escaped verbatim text.
    ``style``: ``\\textstyle`` keeps the lines of a run-on paragraph close (fractions and sums in text size)."""
    if not m:
        return "---"
    if not math_ok(m):
        return verbatim(m)
    f = _safe_math(m)
    return ("\\sbox0{$" + style + " " + f + "$}\\ifdim\\wd0>\\linewidth $" + style + " " + f
            + "$\\else\\usebox0\\fi{}")
