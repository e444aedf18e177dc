"""The import rules of docs/architecture.md, checked statically (ast, no imports run).

* Every name is imported from the module that defines it: ``from M import x`` needs ``x`` defined
  at M's top level (a def, class or assignment) or ``M.x`` to be a submodule. Only the two package
  facades, ``exactodds`` and ``exactodds.stud.equity``, may be imported from for names they only
  re-export. Checked over the package, the tests, the benchmarks, the doctests in docstrings and
  the Python examples of the docs.
* The package's import graph has no circle, counting every import: module level, inside functions
  and under ``TYPE_CHECKING``.
"""

from __future__ import annotations

import ast
import doctest
import re
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "exactodds"
FACADES = {"exactodds", "exactodds.stud.equity"}

def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}
PACKAGES = {name for name, p in MODULES.items() if p.name == "__init__.py"}


def defined_names(tree: ast.Module) -> set[str]:
    """Names bound at a module's top level by def, class or assignment (not by import)."""
    names: set[str] = set()

    def visit(body: list[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                names.add(node.name)
            elif isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    names.update(n.id for n in ast.walk(target) if isinstance(n, ast.Name))
            elif isinstance(node, ast.If | ast.Try | ast.With):
                visit(node.body)
                visit(getattr(node, "orelse", []))
                visit(getattr(node, "finalbody", []))
                for handler in getattr(node, "handlers", []):
                    visit(handler.body)

    visit(tree.body)
    return names


TREES = {name: ast.parse(path.read_text(), filename=str(path)) for name, path in MODULES.items()}
DEFINED = {name: defined_names(tree) for name, tree in TREES.items()}


def resolve(importer: str, node: ast.ImportFrom) -> str:
    """The absolute module of a ``from ... import`` (relative imports resolved against ``importer``)."""
    if not node.level:
        return node.module or ""
    base = importer.split(".")
    if importer not in PACKAGES:
        base = base[:-1]
    base = base[: len(base) - node.level + 1]
    return ".".join(base + ([node.module] if node.module else []))


def python_sources() -> Iterator[tuple[str, str, str]]:
    """(label, importer module or "", source) of every file and example the rule covers."""
    for folder in ("exactodds", "tests", "benchmarks"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            text = path.read_text()
            label = str(path.relative_to(ROOT))
            yield label, module_name(path) if folder == "exactodds" else "", text
            parser = doctest.DocTestParser()
            for node in ast.walk(ast.parse(text)):
                if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                    doc = ast.get_docstring(node, clean=True)
                    if doc and ">>>" in doc:
                        examples = parser.get_examples(doc)
                        yield f"{label} (doctest)", "", "\n".join(e.source for e in examples)
    for path in sorted((ROOT / "docs").rglob("*.md")) + [ROOT / "README.md"]:
        text = path.read_text()
        lines = [m.group(1) for m in re.finditer(r"^(?:>>> |\s*)(from exactodds[\w.]* import [^\n(]+)$",
                                                 text, flags=re.M)]
        yield str(path.relative_to(ROOT)), "", "\n".join(lines)


def from_imports(source: str, importer: str) -> Iterator[tuple[str, str, int]]:
    """(module, name, line) of every ``from exactodds... import name`` in a source."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            module = resolve(importer, node) if importer else (node.module or "")
            if module.split(".")[0] != "exactodds":
                continue
            for alias in node.names:
                yield module, alias.name, node.lineno


def module_attributes(source: str, importer: str) -> Iterator[tuple[str, str, int]]:
    """(module, name, line) of every ``alias.name`` where ``alias`` is a package module imported whole
    (``from P import module [as alias]`` or ``import P.module as alias``)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return
    aliases: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            module = resolve(importer, node) if importer else (node.module or "")
            for alias in node.names:
                if f"{module}.{alias.name}" in MODULES:
                    aliases[alias.asname or alias.name] = f"{module}.{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname and alias.name in MODULES:
                    aliases[alias.asname] = alias.name
    rebound = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                and node.value.id in aliases and node.value.id not in rebound
                and not node.attr.startswith("__")):  # a module's own dunders (__file__, __name__)
            yield aliases[node.value.id], node.attr, node.lineno


def misdirected_imports() -> list[tuple[str, str, str, int]]:
    wrong = []
    for label, importer, source in python_sources():
        uses = [*from_imports(source, importer), *module_attributes(source, importer)]
        for module, name, line in uses:
            if module in FACADES or f"{module}.{name}" in MODULES:
                continue
            if module not in MODULES:
                wrong.append((label, module, name, line))  # no such module
            elif name not in DEFINED[module]:
                wrong.append((label, module, name, line))
    return wrong


def test_every_name_is_imported_from_the_module_that_defines_it():
    wrong = misdirected_imports()
    assert not wrong, "imports of a name from a module that does not define it:\n" + "\n".join(
        f"  {label}:{line}: from {module} import {name}" for label, module, name, line in wrong)


def test_all_lists_only_names_the_module_defines():
    wrong = []
    for name, tree in TREES.items():
        if name in FACADES:
            continue
        for node in tree.body:
            if isinstance(node, ast.Assign) and any(
                    isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
                listed = ast.literal_eval(node.value)
                wrong += [f"{name}: {x}" for x in listed
                          if x not in DEFINED[name] and f"{name}.{x}" not in MODULES]
    assert not wrong, "__all__ names a module does not define:\n" + "\n".join(wrong)


def test_the_facade_exports_name_their_defining_modules():
    tree = TREES["exactodds"]
    exports = next(ast.literal_eval(n.value) for n in tree.body if isinstance(n, ast.Assign)
                   and any(isinstance(t, ast.Name) and t.id == "_EXPORTS" for t in n.targets))
    wrong = [f"{name}: {module}" for name, module in exports.items() if name not in DEFINED[module]]
    assert not wrong, "exactodds._EXPORTS maps names to modules that do not define them:\n" + "\n".join(wrong)


def import_graph() -> dict[str, set[str]]:
    """Module -> the package modules it imports anywhere (functions and TYPE_CHECKING blocks too).

    ``from P import x`` is an edge to the submodule ``P.x`` when there is one, else to ``P``;
    ``import P.Q`` is an edge to ``P.Q``."""
    graph: dict[str, set[str]] = {name: set() for name in MODULES}
    for importer, tree in TREES.items():
        for node in ast.walk(tree):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                module = resolve(importer, node)
                targets = [f"{module}.{a.name}" if f"{module}.{a.name}" in MODULES else module
                           for a in node.names]
            graph[importer].update(t for t in targets if t in MODULES and t != importer)
    return graph


def circles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(frozenset(component))
    return found


def test_the_import_graph_has_no_circle():
    found = circles(import_graph())
    assert not found, "import circles:\n" + "\n".join("  " + " <-> ".join(sorted(c)) for c in found)


@pytest.mark.parametrize("graph, expected", [
    ({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}, [frozenset("abc")]),
    ({"a": {"b"}, "b": set(), "c": {"b"}}, []),
    ({"a": {"b"}, "b": {"a"}, "c": {"d"}, "d": {"c"}}, [frozenset("ab"), frozenset("cd")]),
])
def test_the_circle_finder_finds_circles(graph, expected):
    assert sorted(circles(graph), key=sorted) == expected


def test_the_name_check_sees_a_misdirected_import():
    source = ("from exactodds.stud.equity.methods import StudPosition\n"
              "from exactodds.stud.equity.position import StudPosition")
    found = [(m, n) for m, n, _ in from_imports(source, "")
             if m not in FACADES and n not in DEFINED[m]]
    assert found == [("exactodds.stud.equity.methods", "StudPosition")]


MAX_KERNEL_PARAMETERS = 10
JIT_DECORATORS = {"njit", "jit"}


def is_jitted(function: ast.FunctionDef) -> bool:
    """True when a function is decorated by numba's ``njit`` or ``jit`` (bare, called, or as
    ``numba.njit``)."""
    for decorator in function.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", None)
        if name in JIT_DECORATORS:
            return True
    return False


def long_kernels(tree: ast.Module, label: str) -> list[str]:
    """``label:line name (n parameters)`` of every jitted function with more than
    MAX_KERNEL_PARAMETERS parameters (all kinds counted)."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and is_jitted(node):
            args = node.args
            count = (len(args.posonlyargs) + len(args.args) + len(args.kwonlyargs)
                     + (args.vararg is not None) + (args.kwarg is not None))
            if count > MAX_KERNEL_PARAMETERS:
                found.append(f"{label}:{node.lineno} {node.name} ({count} parameters)")
    return found


def test_no_kernel_takes_more_than_ten_parameters():
    """Kernels take typed bundles (NamedTuples of arrays), not long lists of arrays."""
    found = []
    for path in sorted(PACKAGE.glob("**/kernels/*.py")):
        found += long_kernels(TREES[module_name(path)], str(path.relative_to(ROOT)))
    assert not found, (f"numba kernels with more than {MAX_KERNEL_PARAMETERS} parameters (bundle them):\n"
                       + "\n".join(f"  {line}" for line in found))


def test_the_kernel_check_sees_a_long_kernel():
    source = ("import numba\nfrom numba import njit\n\n"
              "@numba.njit(cache=True)\ndef wide(a, b, c, d, e, f, g, h, i, j, k):\n    pass\n\n"
              "@njit\ndef fine(a, b, c, d, e, f, g, h, i, j):\n    pass\n\n"
              "def plain(a, b, c, d, e, f, g, h, i, j, k):\n    pass\n")
    assert long_kernels(ast.parse(source), "x.py") == ["x.py:5 wide (11 parameters)"]


COMPILE_MACHINERY = "exactodds.kernels"


def _imports_numba(tree: ast.Module) -> bool:
    """Whether a module imports numba (or llvmlite) at its top level, where loading it loads numba."""
    for node in tree.body:
        names = ([alias.name for alias in node.names] if isinstance(node, ast.Import)
                 else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
        if any(name.split(".")[0] in {"numba", "llvmlite"} for name in names):
            return True
    return False


def test_the_compile_machinery_is_plain_python_checked_in_full():
    """exactodds/kernels/ (where numba caches, the compiling workers, the families) holds no jitted
    kernel; it is type-checked in full, not under the kernels' relaxed override (every module of it
    listed by name in pyproject.toml), and only the cache's patch and the compile events load numba
    (the rest runs on every command)."""
    machinery = {name for name in MODULES if name.split(".")[:2] == COMPILE_MACHINERY.split(".")}
    assert not [name for name in machinery for node in ast.walk(TREES[name])
                if isinstance(node, ast.FunctionDef) and is_jitted(node)]
    overrides = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]["overrides"]
    strict = [set(o["module"]) for o in overrides if o.get("disallow_untyped_defs") is True]
    assert machinery in strict
    assert {name for name in machinery if _imports_numba(TREES[name])} == {
        "exactodds.kernels.cache_patch", "exactodds.kernels.events"}
