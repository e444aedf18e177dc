"""Every third-party module the package imports at run time is a declared dependency.

The imports are read from the source (including the ones inside functions), mapped to their
distributions, and checked against ``[project.dependencies]`` and the optional extras that a
feature may name in its error message; the test-only and docs-only extras do not count.
"""

import ast
import re
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

import exactodds

PACKAGE = Path(exactodds.__file__).resolve().parent
PYPROJECT = tomllib.loads((PACKAGE.parent / "pyproject.toml").read_text())
NOT_RUNTIME = {"test", "docs", "dev"}


def _names(requirements: list[str]) -> set[str]:
    return {re.split(r"[\s<>=!~\[;]", r, maxsplit=1)[0].lower().replace("_", "-") for r in requirements}


def imported_top_level_modules() -> dict[str, set[str]]:
    """Top-level module name -> the package files importing it (absolute imports only)."""
    found: dict[str, set[str]] = {}
    for path in PACKAGE.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                modules = [node.module]
            else:
                continue
            for module in modules:
                found.setdefault(module.split(".")[0], set()).add(str(path.relative_to(PACKAGE)))
    return found


def test_every_runtime_import_is_declared():
    declared = _names(PYPROJECT["project"]["dependencies"])
    for extra, requirements in PYPROJECT["project"].get("optional-dependencies", {}).items():
        if extra not in NOT_RUNTIME:
            declared |= _names(requirements)
    distributions = packages_distributions()
    missing = {}
    for module, files in imported_top_level_modules().items():
        if module == "exactodds" or module in sys.stdlib_module_names or module == "__future__":
            continue
        owners = {d.lower().replace("_", "-") for d in distributions.get(module, [module])}
        if not owners & declared:
            missing[module] = sorted(files)
    assert not missing, f"imported but not declared in pyproject.toml: {missing}"


def test_the_checker_sees_lazy_imports():
    modules = imported_top_level_modules()
    assert "numba" in modules and "pyarrow" in modules  # pyarrow is imported inside functions
    assert "pandas" not in modules, "pandas is a test-only library; read tables with pyarrow"
