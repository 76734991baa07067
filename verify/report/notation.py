"""ASCII formulas in a figure's text (labels, titles, legend entries) set as mathtext, in the paper's notation.

A claim writes its figure labels in ASCII ("||W_l - s_l u_l v_l^T||_F", "1 - (v_l^T u_(l+1))^2", "MC d=160");
:func:`math_runs` finds each run of formula tokens among the words and sets it as ``$...$`` mathtext
(``_(l+1)`` -> ``_{l+1}``, ``_op`` -> ``_{\\mathrm{op}}``, ``‖`` -> ``\\Vert``, Greek names -> letters), leaving
the words as text.  A run that mathtext would reject stays as it was: drawing never fails on a label.
"""
from __future__ import annotations

import re

GREEK = ("alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa", "lambda", "mu",
         "nu", "xi", "pi", "rho", "sigma", "tau", "upsilon", "phi", "chi", "psi", "omega", "Gamma", "Delta", "Theta",
         "Lambda", "Xi", "Pi", "Sigma", "Phi", "Psi", "Omega")
_GREEK_CH = "αβγδεζηθικλμνξπρστυφχψωΓΔΘΛΞΠΣΦΨΩϵ"
_GREEK_OF = dict(zip("αβγδεζηθικλμνξπρστυφχψωΓΔΘΛΞΠΣΦΨΩϵ", ("alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta",
                 "theta", "iota", "kappa", "lambda", "mu", "nu", "xi", "pi", "rho", "sigma", "tau", "upsilon", "phi",
                 "chi", "psi", "omega", "Gamma", "Delta", "Theta", "Lambda", "Xi", "Pi", "Sigma", "Phi", "Psi", "Omega",
                 "epsilon")))
_SYMBOL = {**{ch: "\\" + name + " " for ch, name in _GREEK_OF.items()}, "‖": r"\Vert ", "∞": r"\infty ",
           "±": r"\pm ", "≤": r"\leq ", "≥": r"\geq ", "→": r"\to ", "·": r"\cdot ", "⊤": r"\top ", "∈": r"\in "}
_OPS = {"-", "+", "=", "<", ">", "≤", "≥", "→", ".", "·", "/", "∈", "~"}
_NUM = r"[-+]?(?:\d+(?:\.\d+)?(?:[eE][-+]?\d+)?|\.\d+)"
_NAME = r"(?:[A-Za-z]|" + "|".join(GREEK) + r"|[" + _GREEK_CH + r"])"
#: one value or symbol: 3, 0.5, d, alpha, π, 2pi/3, 1/2
_ATOM = re.compile(rf"(?:{_NUM}|\d*(?:pi|π)|{_NAME})(?:/(?:\d+|{_NAME}))?")
#: a parameter set to a value: d=100, s_f=0.5, K=40
_ASSIGN = re.compile(rf"{_NAME}(?:_[A-Za-z0-9]+)?={_NUM}(?:/\d+)?")
_FORMULA_CH = re.compile(r"[A-Za-z0-9_^{}()\[\]|‖+\-*/.,'∞±≤≥→·⊤√~" + _GREEK_CH + r"]+")


#: words after which a capital letter names a part of the paper (App. C), not a symbol
_NAMES_A_PART = re.compile(r"\(?(?:App\.|Appendix|Apps?\.|Sec\.|Section|Part|Table|Fig\.|Figure|Type|Case|Step|"
                           r"Assumption|Condition|Setting)", re.I)


def _symbols_only(t: str) -> bool:
    """Every word of ``t`` is a symbol: a Greek name, at most two letters, or a word in a sub- or superscript
    (``op``, ``min``); a bare word of two letters or more (``of``, ``vs``) is a word."""
    if not _FORMULA_CH.fullmatch(t):
        return False
    for m in re.finditer(r"[A-Za-z]{2,}", t):   # "(so", "eq.(5)": words, not symbols
        if m[0] in GREEK:
            continue
        before = t[: m.start()]
        if not re.search(r"[_^]\{?$", before):
            return False
    return True


def _formula_token(t: str) -> bool:
    """A token written as a formula: scripted, normed or with an arrow or infinity, and only symbols in it."""
    return any(ch in t for ch in "_^‖→∞√") and _symbols_only(t)


def _kind(tok: str) -> str:
    """'f' a formula, 'a' an atom (value or symbol), 'o' an operator, 'w' anything else (a word)."""
    core = re.sub(r"^[(\[]+|[)\],;:.]+$", "", tok)   # "(n=8,", "d=8).": the value itself
    if tok in _OPS:
        return "o"
    if _formula_token(tok) or _ASSIGN.fullmatch(core):
        return "f"
    if tok in ("a", "A", "I"):   # an article or a pronoun, not a symbol
        return "w"
    if _ATOM.fullmatch(core) or _symbols_only(tok.rstrip(",;:")):   # 3, alpha, H(0), beta(T)
        return "a"
    return "w"


def to_mathtext(run: str) -> str:
    """A formula run in mathtext (without the dollars)."""
    s = run.replace("**", "^")
    s = re.sub(r"([_^])\(([^()]*)\)", r"\1{\2}", s)   # u_(l+1): the bracket groups the script
    s = re.sub(r"([_^])([A-Za-z]{2,})", lambda m: m[1] + ("{\\" + m[2] + "}" if m[2] in GREEK
                                                          else "{\\mathrm{" + m[2] + "}}"), s)
    s = re.sub(r"([_^])(-\d+(?:\.\d+)?|\d+\.\d+|\d{2,})", r"\1{\2}", s)   # H^-1, x_12: the whole number in the script
    s = re.sub(r"√\(((?:[^()]|\([^()]*\))*)\)", r"\\sqrt{\1}", s)   # sqrt(y^T H^-1 y)
    s = re.sub(r"(?<![A-Za-z\\])(" + "|".join(sorted(GREEK, key=len, reverse=True)) + r")(?![A-Za-z])", r"\\\1 ", s)
    s = re.sub(r"(?<![A-Za-z])([A-Za-z])~", r"\\tilde{\1}", s)   # y~: the paper's y with a tilde
    s = re.sub(r" ~ ", r" \\sim ", s)
    s = "".join(_SYMBOL.get(ch, ch) for ch in s)
    s = re.sub(r" \. ", r" \\cdot ", s)
    return s.strip()


def _ok(m: str) -> bool:
    try:
        from matplotlib.mathtext import MathTextParser
        MathTextParser("path").parse(f"${m}$")
        return True
    except Exception:   # noqa: BLE001 - any parse failure: the run stays as text
        return False


def math_runs(s: str) -> str:
    """``s`` (text without ``$``) with each run of formula tokens set as mathtext.

    A run is a sequence of formulas, atoms and operators, split by words and by two or more spaces, that holds a
    formula (a scripted or normed token, an assignment ``d=100``), or ``=`` between a symbol and a value; a label
    that is one symbol alone (``k``, ``m``) is one too.  Brackets a run leaves open and trailing punctuation stay
    outside the math."""
    if "$" in s:
        return s
    parts = re.split(r"(\s{2,})", s)
    out = []
    for part in parts:
        if not part or part.isspace():
            out.append(part)
            continue
        toks = part.split(" ")
        kinds = [_kind(t) if t else "w" for t in toks]
        i, res = 0, []
        while i < len(toks):
            if kinds[i] == "w":
                res.append(toks[i])
                i += 1
                continue
            j = i
            while j < len(toks) and kinds[j] != "w":
                if j > i and toks[j].startswith("(") and (_ASSIGN.match(toks[j][1:]) or toks[j + 1:j + 2] == ["="]):
                    break   # "lambda_0 (n=8, d=5)": the settings in brackets are not an argument
                j += 1
                if re.search(r"[,;:]$", toks[j - 1]):   # a comma ends a formula: "d=100, 500 draws"
                    break
            part = i > 0 and _NAMES_A_PART.fullmatch(toks[i - 1])
            if j == i + 1 and part and re.fullmatch(r"[A-Z][.,;:)]?", toks[i]):
                res.append(toks[i])   # "App. C", "Table A": a part of the paper, not a symbol
            else:
                res.append(_run(toks[i:j], kinds[i:j], alone=len(toks) == 1))
            i = j
        out.append(" ".join(res))
    return "".join(out)


def _run(toks: list[str], kinds: list[str], alone: bool = False) -> str:
    while toks and kinds[0] == "o" and toks[0] != "-":   # a run does not start on a relation
        return toks[0] + " " + _run(toks[1:], kinds[1:]) if len(toks) > 1 else toks[0]
    while toks and kinds[-1] == "o":
        return (_run(toks[:-1], kinds[:-1]) + " " + toks[-1]).strip()
    text = " ".join(toks)
    eq = any(t in ("=", "→", "≤", "≥", "<", ">", "~") for t in toks) and len(toks) >= 3   # alpha -> 0, L = 2
    sym = toks[0].strip("(),;:") if len(toks) == 1 else ""
    single = re.fullmatch(_NAME, sym) and (sym != "x" or alone)   # a symbol alone (width m); "order x the": times
    if not ("f" in kinds or eq or single):
        return text
    lead, tail = "", ""
    m = re.search(r"[,;:.]+$", text)
    if m and not re.search(r"\d\.$", text[: m.end()] if m[0] == "." else ""):
        text, tail = text[: m.start()], m[0]
    while text.startswith("(") and text.count("(") > text.count(")"):
        lead, text = lead + "(", text[1:]
    while text.endswith(")") and text.count(")") > text.count("("):
        tail, text = ")" + tail, text[:-1]
    if not text:
        return lead + tail
    m_ = to_mathtext(text)
    return lead + (f"${m_}$" if _ok(m_) else text) + tail


def _visible(w: str) -> int:
    """About how many characters ``w`` shows: ``$\\lambda _{\\mathrm{min}}$`` shows 4, not 24."""
    def shown(m):
        inner = re.sub(r"\\mathrm\{([^}]*)\}", r"\1", m[1])
        return "x" * len(re.sub(r"[{}_^\s]", "", re.sub(r"\\[A-Za-z]+", "x", inner)))
    return len(re.sub(r"\$([^$]*)\$", shown, w))


def _wrap(s: str, width: int) -> list[str]:
    """Greedy wrapping at ``width`` visible characters that never breaks inside ``$...$`` (a line with one dollar
    would not parse) and counts a formula by what it shows, not by its mathtext source."""
    protected = re.sub(r"\$[^$]*\$", lambda m: m[0].replace(" ", "\x00"), s)
    lines: list[str] = []
    for word in protected.split():
        word = word.replace("\x00", " ")
        if lines and _visible(lines[-1]) + 1 + _visible(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def panel_title(parts: list[str], width: int) -> str:
    """A panel's parameters on as many lines as its width needs (a line breaks between parameters, never inside
    one): side by side, long titles would run into the next panel's."""
    lines: list[str] = []
    pieces = [q for p in parts if p for q in re.split(r", (?=(?:[^$]*\$[^$]*\$)*[^$]*$)", p)]   # not inside $...$
    for p in pieces:
        if lines and _visible(lines[-1] + ", " + p) <= width:
            lines[-1] += ", " + p
        else:
            lines.append(p)
    return ",\n".join(lines)


def strip_claim_id(title: str, cid: str) -> str:
    """A figure title without the claim id it may start with: the full id ("shachaf2021.thm6.1: ..."), the id
    without its source ("thm6.1: ..."), or the short id of the claim it belongs to ("cor6.3: ..." for
    ``shachaf2021.cor6.3.first_term``), followed by a colon or dash.  The caption names the claim once."""
    title = title or ""
    paper, _, short = cid.partition(".")
    parts = short.split(".")
    heads = [cid] + [".".join(parts[:k]) for k in range(len(parts), 0, -1)]
    for h in heads:
        if h and re.match(re.escape(h) + r"\s*[:—–-]\s", title + " "):
            return re.sub(r"^" + re.escape(h) + r"\s*[:—–-]\s*", "", title)
    return title
