"""The code an object reaches, hashed without its layout: the key of a stored result.

A stored result (the resume cache, the mutants store, a claim's measured power) is valid while the code that
computed it is the same.  Hashing whole files made any edit of a shared module, and any move or rename of a
module, invalidate every stored result.  :func:`reached_key` instead hashes what a claim actually reaches from
its objects:

* **data** is hashed by value: numbers, strings, containers (dicts and sets sorted, so the key does not depend
  on ``PYTHONHASHSEED``), sympy expressions (``srepr``, ``Dummy`` indices renumbered), numpy arrays and torch
  tensors (dtype, shape, bytes), ``functools.partial``, bound methods, and instances of our classes (their
  dataclass fields or ``__dict__``);
* **a function** by its bytecode (instructions with their names and constants, nested code recursively), its
  defaults, closure cells, and the globals its code loads: a function, class or constant by its own hash, one
  of our modules (``W.scratch_risk_finite``) by the attributes the code names (``co_names``); the targets of
  imports inside the function (``from .stated import stated_value``) the same way;
* **a class** of ours by its methods, properties, class attributes, dataclass field defaults and bases.

Our code is every module not installed as a library (not under the standard library or ``site-packages``):
``derivations``, ``numerics``, ``verify`` and a claims package given with ``--claims`` (and one installed
under the ``ftverify.claims`` entry point: :func:`also_ours`).  Library code enters by name only; its
versions enter the keys beside this hash (:mod:`verify.run.cache`).

Excluded as layout: module and file names (``co_filename``, ``__module__``, ``__name__``, ``__file__``, the
module path and level of an import statement), line numbers (``co_firstlineno``, ``co_linetable``) and
docstrings (never loaded by an instruction, so not in the hash: editing prose keeps every result).  A
function's or class's own name is kept (renaming a function is a code change, moving it is not).  Paths
count by their last component only (an absolute path is the checkout's location, not code).

The hash of a function or class is computed once per process (cached by object); the hash of a claim is
the sorted set of the hashes of everything it reaches, so a graph with cycles (a recursive function, a
class whose methods name it) needs no special order.  Never hashed: ``id()`` or a ``repr`` that shows an
address (such an object counts by its type only).
"""
from __future__ import annotations

import dataclasses
import dis
import enum
import functools
import hashlib
import importlib
import importlib.util
import re
import sys
import sysconfig
import types
from pathlib import Path, PurePath

#: names in a module's namespace that say where it is, not what it does
_DUNDER_GLOBALS = frozenset({"__file__", "__name__", "__package__", "__spec__", "__loader__", "__path__",
                             "__cached__", "__builtins__", "__doc__"})
#: entries of a class's ``__dict__`` that are layout, documentation or interpreter bookkeeping
_CLASS_SKIP = frozenset({"__module__", "__qualname__", "__doc__", "__dict__", "__weakref__", "__annotations__",
                         "_abc_impl", "__orig_bases__", "__parameters__", "__firstlineno__", "__static_attributes__",
                         "__slotnames__"})  # __slotnames__: cached on the class by copyreg at the first copy or pickle
_ADDRESS = re.compile(r"0x[0-9a-fA-F]{6,}")
_DUMMY = re.compile(r"dummy_index=\d+")
_EXTRA_OURS: set[str] = set()


def _h(*parts) -> str:
    return hashlib.sha256("\x1f".join(map(str, parts)).encode()).hexdigest()[:32]


def also_ours(top_level: str) -> None:
    """Count the installed package ``top_level`` as our code (a claims package under the entry point lives in
    ``site-packages``, but its code is what its claims depend on)."""
    if top_level not in _EXTRA_OURS:
        _EXTRA_OURS.add(top_level)
        _ours_module.cache_clear()


@functools.lru_cache(maxsize=None)
def _library_roots() -> tuple[str, ...]:
    paths = sysconfig.get_paths()
    roots = {paths[k] for k in ("stdlib", "platstdlib", "purelib", "platlib") if k in paths}
    roots |= {p for p in sys.path if p.rstrip("/").endswith(("site-packages", "dist-packages"))}
    return tuple(sorted(str(Path(r).resolve()) for r in roots))


@functools.lru_cache(maxsize=None)
def _ours_module(name: str | None) -> bool:
    """Whether a module is ours: not built in, not under the standard library or an installed library.  Code
    generated without a module (sympy's ``lambdify``) is ours: it is made from our expressions."""
    if not name:
        return True
    top = name.split(".")[0]
    if top in _EXTRA_OURS or top == "__main__":
        return True
    mod = sys.modules.get(top)
    if mod is None:
        return False
    f = getattr(mod, "__file__", None) or next(iter(getattr(mod, "__path__", []) or []), None)
    if f is None:
        return False
    f = str(Path(f).resolve())
    return not any(f == r or f.startswith(r + "/") for r in _library_roots())


def _is_node(x) -> bool:
    """Functions and classes of ours: hashed once each (:func:`_local`) and reached through edges."""
    if isinstance(x, types.FunctionType):
        return _ours_module(x.__module__)
    return isinstance(x, type) and _ours_module(x.__module__)


def _shallow(x) -> str:
    """A node's identity inside another hash: its own code, not what it reaches (that is hashed separately)."""
    if isinstance(x, types.FunctionType):
        return "fn:" + _code(x.__code__)
    return "class:" + x.__qualname__


# --------------------------------------------------------------------------- code objects
_CODE: dict[int, tuple] = {}
_INS: dict[int, tuple] = {}


def _ins(co: types.CodeType) -> list:
    """The instructions of a code object (disassembled once per process)."""
    hit = _INS.get(id(co))
    if hit is None or hit[0] is not co:
        hit = _INS[id(co)] = (co, list(dis.get_instructions(co)))
    return hit[1]


def _code(co: types.CodeType) -> str:
    """The hash of a code object without its layout: instructions with names and constants (nested code
    recursively), argument counts, flags, variable names and the exception table; no file, line or docstring.
    The level and module path of an import statement are left out (the imported objects count instead, see
    :func:`_imports`)."""
    hit = _CODE.get(id(co))
    if hit is not None and hit[0] is co:
        return hit[1]
    ins = _ins(co)
    out = [co.co_name, co.co_argcount, co.co_posonlyargcount, co.co_kwonlyargcount, co.co_flags, co.co_varnames,
           co.co_freevars, co.co_cellvars, getattr(co, "co_exceptiontable", b"").hex()]
    for i, x in enumerate(ins):
        if x.opname == "IMPORT_NAME":
            out.append("IMPORT_NAME")
        elif x.opname == "LOAD_CONST" and i + 2 < len(ins) and ins[i + 2].opname == "IMPORT_NAME":
            out.append("LEVEL")   # the relative level of an import: layout
        elif x.opname in ("LOAD_CONST", "RETURN_CONST"):
            out.append(x.opname + " " + _const(x.argval))
        else:
            out.append(x.opname + " " + x.argrepr)
    d = _h(*out)
    _CODE[id(co)] = (co, d)
    return d


def _const(c) -> str:
    if isinstance(c, types.CodeType):
        return "code:" + _code(c)
    if isinstance(c, (tuple, frozenset)):
        items = [_const(x) for x in c]
        return type(c).__name__ + "(" + ",".join(sorted(items) if isinstance(c, frozenset) else items) + ")"
    return type(c).__name__ + ":" + repr(c)


def _codes(co: types.CodeType):
    yield co
    for c in co.co_consts:
        if isinstance(c, types.CodeType):
            yield from _codes(c)


def _imports(fn: types.FunctionType):
    """(bound names, imported module) of every import statement in a function's code (nested code too)."""
    pkg = fn.__globals__.get("__package__") or (fn.__module__ or "").rpartition(".")[0]
    for co in _codes(fn.__code__):
        ins = _ins(co)
        for i, x in enumerate(ins):
            if x.opname != "IMPORT_NAME" or i < 2:
                continue
            level, fromlist = ins[i - 2].argval, ins[i - 1].argval
            try:
                name = importlib.util.resolve_name("." * level + x.argval if level else x.argval, pkg)
                mod = importlib.import_module(name)
            except Exception:  # noqa: BLE001 - an import that fails at run time fails the claim, not its key
                yield (x.argval, fromlist), None
                continue
            if fromlist and fromlist != ("*",):
                for n in fromlist:
                    if not hasattr(mod, n):
                        try:
                            importlib.import_module(f"{name}.{n}")
                        except Exception:  # noqa: BLE001
                            pass
                    yield n, getattr(mod, n, None)
            else:   # `import a.b`: binds `a`; the code's co_names say which attributes it uses
                yield name.split(".")[0], sys.modules.get(name.split(".")[0])


_MUTATORS = frozenset({"setdefault", "update", "append", "add", "pop", "popitem", "clear", "extend", "insert",
                       "discard", "remove", "__setitem__"})


def _container_load(ins: list, j: int, loads: tuple) -> str | None:
    """The name loaded (by one of ``loads``) as the container of the subscript store at ``ins[j]``
    (``X[key] = v``), or None: walks back over the key expression by stack effects."""
    k, need = j - 1, 1          # the key expression leaves one value, then the container one more
    for _ in range(2):
        while k >= 0 and need > 0:
            try:
                need -= dis.stack_effect(ins[k].opcode, ins[k].arg, jump=False) if ins[k].opcode >= dis.HAVE_ARGUMENT \
                    else dis.stack_effect(ins[k].opcode)
            except ValueError:
                return None
            k -= 1
        if need != 0:
            return None
        need = 1
    last = ins[k + 1]
    return last.argval if last.opname in loads else None


def _written(co: types.CodeType, loads: tuple = ("LOAD_GLOBAL",)) -> set[str]:
    """Names a code object writes into, loaded by one of ``loads`` (globals; ``LOAD_DEREF``: closure cells):
    rebinds (``global X; X = ...``), stores into (``X[k] = v``) or changes by a method (``X.setdefault(...)``,
    ``X.add(...)``)."""
    out: set[str] = set()
    for c in _codes(co):
        ins = _ins(c)
        for j, x in enumerate(ins):
            if x.opname in ("STORE_GLOBAL", "DELETE_GLOBAL") and "LOAD_GLOBAL" in loads:
                out.add(x.argval)
            elif x.opname in ("STORE_SUBSCR", "DELETE_SUBSCR"):
                if (n := _container_load(ins, j, loads)) is not None:
                    out.add(n)
            elif x.opname in loads and j + 1 < len(ins) and ins[j + 1].opname in ("LOAD_METHOD", "LOAD_ATTR") \
                    and ins[j + 1].argval in _MUTATORS:
                out.add(x.argval)
    return out


_STATE: dict[int, tuple] = {}
_STORE_GLOBAL = dis.opmap["STORE_GLOBAL"]   # wordcode: every even byte of co_code is an opcode


def _state_names(g: dict) -> set[str]:
    """The names of a module namespace that its own code writes into at run time: memo dicts such as
    ``_CACHE: dict = {}``, a set grown by a check, a global rebound lazily (``global _POOL; _POOL = ...``).
    State, not code: hashed by type only (their contents depend on what ran before in the process)."""
    hit = _STATE.get(id(g))
    if hit is not None and hit[0] is g:
        return hit[1]
    out: set[str] = set()
    containers = {n for n, v in g.items() if type(v) in (dict, list, set) and not n.startswith("__")}
    for v in list(g.values()):
        fns = [v] if isinstance(v, types.FunctionType) else (
            [f for a in vars(v).values() for f in (getattr(a, "__func__", a), getattr(a, "fget", None))]
            if isinstance(v, type) else [])
        for f in fns:
            if isinstance(f, types.FunctionType) and f.__globals__ is g and any(
                    containers.intersection(co.co_names) or _STORE_GLOBAL in co.co_code[0::2]
                    for co in _codes(f.__code__)):
                out |= _written(f.__code__)
    _STATE[id(g)] = (g, out)
    return out


# --------------------------------------------------------------------------- data
class _Walk:
    """One hashing pass: data digests memoised by object (kept alive, so an id is never reused), nodes found."""

    def __init__(self):
        self.memo: dict[int, tuple] = {}
        self.stack: set[int] = set()

    def data(self, x, found: list) -> str:
        """The hash of a value; the nodes (our functions and classes) it holds are appended to ``found``."""
        if x is None or isinstance(x, (bool, int, float, complex, str, bytes)) and type(x) in (
                bool, int, float, complex, str, bytes):
            return type(x).__name__ + ":" + repr(x)
        if isinstance(x, enum.Enum):
            if _is_node(type(x)):
                found.append(type(x))
            return _h("enum", type(x).__name__, x.name, self.data(x.value, found))
        if _is_node(x):
            found.append(x)
            return _shallow(x)
        k = id(x)
        hit = self.memo.get(k)
        if hit is not None and hit[0] is x:
            found += hit[2]
            return hit[1]
        if k in self.stack:
            return "cycle"
        self.stack.add(k)
        mine: list = []
        try:
            d = self._data(x, mine)
        finally:
            self.stack.discard(k)
        self.memo[k] = (x, d, mine)
        found += mine
        return d

    def _data(self, x, found: list) -> str:
        t = type(x)
        tag = t.__qualname__ if _ours_module(t.__module__) else f"{t.__module__}.{t.__qualname__}"
        if isinstance(x, types.ModuleType):
            return "module:" + ("" if _ours_module(x.__name__) else x.__name__)
        if isinstance(x, type):   # a library class
            return f"lib-class:{x.__module__}.{x.__qualname__}"
        if isinstance(x, types.FunctionType):   # a library function
            return f"lib-fn:{x.__module__}.{x.__qualname__}"
        if t.__module__.split(".")[0] == "sympy" and hasattr(x, "free_symbols"):
            import sympy as sp

            return _h("sympy", _DUMMY.sub(lambda m, c=iter(range(10**9)): f"dummy_index={next(c)}", sp.srepr(x)))
        if isinstance(x, (tuple, list)):
            items = [self.data(v, found) for v in x]
            return _h(tag, *items)
        if isinstance(x, (set, frozenset)):
            return _h(tag, *sorted(self.data(v, found) for v in x))
        if isinstance(x, dict):
            return _h(tag, *sorted(self.data(k, found) + "=" + self.data(v, found) for k, v in x.items()))
        if isinstance(x, PurePath):
            return "path:" + x.name
        if t.__module__ == "numpy" or t.__module__.startswith("numpy."):
            import numpy as np

            if isinstance(x, np.ndarray):
                return _h("ndarray", x.dtype.str, x.shape, hashlib.sha256(np.ascontiguousarray(x).tobytes()).hexdigest())
            if isinstance(x, np.generic):
                return _h("np", x.dtype.str, repr(x.item()))
        if t.__module__.split(".")[0] == "torch":
            import torch

            if isinstance(x, torch.Tensor):
                a = x.detach().cpu().contiguous()
                return _h("tensor", str(a.dtype), tuple(a.shape), hashlib.sha256(a.view(-1).view(torch.uint8).numpy()
                                                                                   .tobytes()).hexdigest())
        if isinstance(x, functools.partial):
            return _h("partial", self.data(x.func, found), self.data(x.args, found), self.data(x.keywords, found))
        if isinstance(x, types.MethodType):
            return _h("method", self.data(x.__func__, found), self.data(x.__self__, found))
        if isinstance(x, (staticmethod, classmethod)):
            return _h(tag, self.data(x.__func__, found))
        if isinstance(x, property):
            return _h("property", *(self.data(f, found) for f in (x.fget, x.fset, x.fdel)))
        if isinstance(x, dataclasses.Field):
            return _h("field", x.name, self.data(x.default, found), self.data(x.default_factory, found))
        if x is dataclasses.MISSING:
            return "missing"
        if not isinstance(x, type) and hasattr(x, "__wrapped__"):   # functools.lru_cache, functools.wraps
            return _h("wrapped", tag, self.data(x.__wrapped__, found))
        if _ours_module(t.__module__):   # an instance of one of our classes
            found.append(t)
            if dataclasses.is_dataclass(x):
                fields = [(f.name, getattr(x, f.name)) for f in dataclasses.fields(x)]
            else:
                fields = sorted(getattr(x, "__dict__", {}).items())
                fields += [(s, getattr(x, s)) for s in getattr(t, "__slots__", ()) if hasattr(x, s)]
            return _h("obj", _shallow(t), *(f"{n}=" + self.data(v, found) for n, v in fields))
        # a library object: by its repr unless that shows an address (then by its type only)
        try:
            r = repr(x)
        except Exception:  # noqa: BLE001
            r = ""
        name = getattr(x, "__qualname__", None) or getattr(x, "__name__", None)
        if name is not None and callable(x):   # builtins, ufuncs, library callables
            return f"lib:{getattr(x, '__module__', None) or tag}.{name}"
        return _h("lib-obj", tag, "" if _ADDRESS.search(r) else r)


# --------------------------------------------------------------------------- nodes
_LOCAL: dict[int, tuple] = {}


def _local(node) -> tuple[str, list]:
    """A node's own hash and the nodes it references (cached per process: our code does not change while it
    runs)."""
    hit = _LOCAL.get(id(node))
    if hit is not None and hit[0] is node:
        return hit[1], hit[2]
    w, found = _Walk(), []
    if isinstance(node, types.FunctionType):
        parts = ["fn", _code(node.__code__), w.data(node.__defaults__, found), w.data(node.__kwdefaults__, found),
                 w.data(_cells(node), found),
                 w.data({k: v for k, v in vars(node).items() if k not in ("__doc__",)}, found)]
        names = sorted({n for co in _codes(node.__code__) for n in co.co_names})
        loaded = sorted({x.argval for co in _codes(node.__code__) for x in _ins(co) if x.opname in _GLOBAL_LOADS})
        g = node.__globals__
        state = _state_names(g)
        for n in loaded:
            if n in state:
                parts.append(f"global {n}=state")
            elif n in g and n not in _DUNDER_GLOBALS:
                parts.append(f"global {n}=" + _global(w, g[n], _uses(node, n, _GLOBAL_LOADS), names, found))
        for n, v in _imports(node):
            parts.append(f"import {n}=" + _global(w, v, _uses(node, n, _LOCAL_LOADS), names, found))
    else:   # one of our classes
        parts = ["class", node.__qualname__, *(w.data(b, found) for b in node.__bases__)]
        for k, v in sorted(vars(node).items()):
            if k not in _CLASS_SKIP:
                parts.append(f"{k}=" + w.data(v, found))
    d = _h(*parts)
    _LOCAL[id(node)] = (node, d, found)
    return d, found


def _cells(fn: types.FunctionType) -> list:
    """A function's closure values; a container the function writes into (a memo, the running-set of a
    dataclass ``__repr__``) is state and counts by its type only."""
    if not fn.__closure__:
        return []
    written = _written(fn.__code__, ("LOAD_DEREF",))
    return [f"state:{type(v).__name__}" if n in written and type(v) in (dict, list, set) else v
            for n, v in zip(fn.__code__.co_freevars, map(_cell, fn.__closure__))]


def _cell(c):
    try:
        return c.cell_contents
    except ValueError:   # an empty cell (a name assigned later in the enclosing function)
        return "<empty cell>"


_GLOBAL_LOADS = ("LOAD_GLOBAL", "LOAD_NAME")
_LOCAL_LOADS = ("LOAD_FAST", "LOAD_DEREF", "LOAD_CLASSDEREF", "LOAD_GLOBAL", "LOAD_NAME")


def _uses(fn: types.FunctionType, name: str, loads: tuple) -> set[tuple] | None:
    """The attribute chains the code reads from ``name`` (``W.sub.f`` gives ``("sub", "f")``), or None when the
    name is also used bare (passed on, aliased: then any attribute the code names may be read)."""
    chains: set[tuple] = set()
    for co in _codes(fn.__code__):
        ins = _ins(co)
        for i, x in enumerate(ins):
            if x.opname in loads and x.argval == name:
                chain = []
                for y in ins[i + 1:]:
                    if y.opname not in ("LOAD_ATTR", "LOAD_METHOD"):
                        break
                    chain.append(y.argval)
                if not chain:
                    return None
                chains.add(tuple(chain))
    return chains


def _global(w: _Walk, v, chains: set[tuple] | None, names: list, found: list, depth: int = 0) -> str:
    """A global (or imported name) a function loads: one of our modules counts by the attributes the code reads
    from it (``chains``; all the names the code holds when the module is used bare), submodules likewise;
    anything else by :meth:`_Walk.data`."""
    if not (isinstance(v, types.ModuleType) and _ours_module(v.__name__) and depth < 4):
        return w.data(v, found)
    by_attr: dict[str, set | None] = {}
    if chains is None:
        by_attr = {a: None for a in names}
    else:
        for c in sorted(chains):
            tails = by_attr.setdefault(c[0], set())
            if tails is not None:
                by_attr[c[0]] = None if len(c) == 1 else tails | {c[1:]}
    attrs = [f"{a}=" + _global(w, getattr(v, a), sub, names, found, depth + 1)
             for a, sub in sorted(by_attr.items()) if a not in _DUNDER_GLOBALS and hasattr(v, a)]
    return _h("our-module", *attrs)


def reached_key(*roots) -> str:
    """The hash of ``roots`` (values, functions, classes) and of everything they reach, without layout."""
    w, found = _Walk(), []
    top = [w.data(r, found) for r in roots]
    seen: dict[int, str] = {}
    while found:
        n = found.pop()
        if id(n) in seen:
            continue
        d, edges = _local(n)
        seen[id(n)] = d
        found.extend(edges)
    return _h("reached", *top, *sorted(set(seen.values())))


__all__ = ["reached_key", "also_ours"]
