"""Everything a bot could reach from what it is given: the object graph behind a view, walked like a
debugger would — attributes (`__slots__` and `__dict__`), properties, the items of tuples, lists, sets
and dicts, the `__self__` of bound methods (builtin ones too: `rng.random` leads to its generator), and
the closures, defaults and `functools.partial` arguments of functions. Module globals and classes are not
followed: they are the program, the same for every game, not data handed to a bot.

`leaks` names the path to every forbidden object found; `canonical` turns the whole graph into plain
nested tuples, so two views can be compared for *everything* reachable from them, not just their fields.
"""

from __future__ import annotations

import enum
import functools
import types
import warnings
from collections.abc import Callable, Iterator

LEAVES = (int, float, complex, str, bytes, bool, type(None), enum.Enum)


def children(obj: object) -> Iterator[tuple[str, object]]:
    """(how, child) for every object directly reachable from `obj`."""
    if isinstance(obj, (*LEAVES, type, types.ModuleType)):
        return
    if isinstance(obj, dict):
        for i, (key, value) in enumerate(obj.items()):
            yield f"<key {i}>", key
            yield f"[{key!r}]", value
        return
    if isinstance(obj, (set, frozenset)):
        for item in sorted(obj, key=repr):
            yield "<item>", item
    elif isinstance(obj, (tuple, list)):
        for i, item in enumerate(obj):
            yield f"[{i}]", item
    if isinstance(obj, (types.MethodType, types.BuiltinMethodType, types.MethodWrapperType)):
        yield ".__self__", obj.__self__
        if isinstance(obj, types.MethodType):
            yield ".__func__", obj.__func__
        return
    if isinstance(obj, types.FunctionType):
        for name, cell in zip(obj.__code__.co_freevars, obj.__closure__ or (), strict=True):
            try:
                yield f"<closure {name}>", cell.cell_contents
            except ValueError:  # an empty cell
                continue
        yield ".__defaults__", obj.__defaults__
        yield ".__kwdefaults__", obj.__kwdefaults__
        return
    if isinstance(obj, functools.partial):
        yield ".func", obj.func
        yield ".args", obj.args
        yield ".keywords", obj.keywords
        return
    cls = type(obj)
    for klass in cls.__mro__:
        for name in klass.__dict__.get("__slots__", ()):
            if name in ("__dict__", "__weakref__"):
                continue
            attr = f"_{klass.__name__.lstrip('_')}{name}" if name.startswith("__") and not name.endswith("__") else name
            if hasattr(obj, attr):
                yield f".{name}", getattr(obj, attr)
    if hasattr(obj, "__dict__") and not isinstance(obj.__dict__, types.MappingProxyType):
        yield from ((f".{name}", value) for name, value in vars(obj).items())
    for klass in cls.__mro__:
        for name, attr in vars(klass).items():
            if isinstance(attr, (property, functools.cached_property)):
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")  # e.g. pydantic's deprecated instance properties
                    try:
                        value = getattr(obj, name)
                    except Exception:  # a property that cannot be read gives nothing away
                        continue
                yield f".{name}", value


def walk(root: object, seen: dict[int, object] | None = None) -> Iterator[tuple[str, object]]:
    """(path, object) for everything reachable from `root`, each object once.

    `seen` may be shared between calls to skip what an earlier call already walked; it keeps every object
    alive, so an id is never reused by a new object while the walk lasts.
    """
    seen = {} if seen is None else seen
    stack = [("view", root)]
    while stack:
        path, obj = stack.pop()
        if id(obj) in seen:
            continue
        seen[id(obj)] = obj
        yield path, obj
        stack.extend((path + how, child) for how, child in children(obj))


def leaks(root: object, forbidden: Callable[[object], str | None],
          seen: dict[int, object] | None = None) -> list[str]:
    """'path: why' for every reachable object `forbidden` objects to."""
    found = []
    for path, obj in walk(root, seen):
        why = forbidden(obj)
        if why:
            found.append(f"{path}: {why}")
    return found


class Canonical:
    """Dumps reachable graphs as plain nested tuples of type names and values (identity-free), so two
    graphs holding the same data compare equal and any difference anywhere makes them unequal.

    One instance remembers what it has dumped (and keeps it alive), so the objects several graphs share —
    an edition's tables — are dumped once; use a new one for graphs that may have changed since.
    """

    def __init__(self) -> None:
        self.memo: dict[int, object] = {}
        self.keep: list[object] = []

    def __call__(self, root: object) -> object:
        return _dump(root, self.memo, self.keep)


def canonical(root: object) -> object:
    """One graph's dump (see `Canonical`)."""
    return Canonical()(root)


def _dump(root: object, memo: dict[int, object], keep: list[object]) -> object:
    on_path: set[int] = set()

    def dump(obj: object) -> object:
        if isinstance(obj, LEAVES):
            return type(obj).__qualname__, obj if not isinstance(obj, enum.Enum) else obj.name
        key = id(obj)
        if key in memo:
            return memo[key]
        if key in on_path:
            return ("<cycle>",)
        if isinstance(obj, (type, types.ModuleType)):
            return "<program>", getattr(obj, "__qualname__", getattr(obj, "__name__", "?"))
        on_path.add(key)
        keep.append(obj)
        name = type(obj).__qualname__
        if isinstance(obj, types.FunctionType):
            name = f"function {obj.__qualname__}"
        result = (name, tuple((how, dump(child)) for how, child in children(obj)))
        on_path.discard(key)
        memo[key] = result
        return result

    return dump(root)
