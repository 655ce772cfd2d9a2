"""The application packages import one another without a cycle (#22 item 3), counting the
imports inside functions: pages and API -> services -> models and pure engines, the contexts
registering with printing and notices rather than being imported by them.

The graph is read from the source with ``ast`` (the logic of tools/imports.py): every
``import`` and ``from ... import`` anywhere in a module, migrations left out.
"""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SKIPPED = {"tests", "benchmarks"}


def modules(root: Path) -> dict[str, Path]:
    """Dotted name -> file, for every module of the packages at ``root``."""
    found = {}
    for package in sorted(p for p in root.iterdir()
                          if (p / "__init__.py").exists() and p.name not in SKIPPED):
        for path in package.rglob("*.py"):
            if "migrations" in path.parts:
                continue
            name = ".".join(path.relative_to(root).with_suffix("").parts)
            found[name.removesuffix(".__init__")] = path
    return found


def graph(found: dict[str, Path]) -> dict[str, set[str]]:
    """Module -> the project modules it imports (the nearest known enclosing module)."""
    def resolve(name: str) -> str | None:
        while name and name not in found:
            name = name.rpartition(".")[0]
        return name or None

    edges: dict[str, set[str]] = {name: set() for name in found}
    for name, path in found.items():
        package = path.name == "__init__.py"
        for node in ast.walk(ast.parse(path.read_text())):
            targets: list[str | None] = []
            if isinstance(node, ast.Import):
                targets = [resolve(alias.name) for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = name.split(".") if package else name.split(".")[:-1]
                    parts = parts[: len(parts) - node.level + 1]
                    base = ".".join(parts + ([node.module] if node.module else []))
                targets = [resolve(f"{base}.{alias.name}") or resolve(base)
                           for alias in node.names]
            edges[name].update(t for t in targets if t and t != name)
    return edges


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in edges:
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_the_finder_sees_a_cycle_through_an_import_inside_a_function(tmp_path):
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from pkg import b\n")
    (package / "b.py").write_text("def late():\n    from pkg.a import x\n")
    (package / "c.py").write_text("from . import a\n")
    assert cycles(graph(modules(tmp_path))) == [["pkg.a", "pkg.b"]]


def test_the_application_has_no_import_cycle():
    found = cycles(graph(modules(ROOT)))
    report = "\n".join(f"{len(c)} modules: {' <-> '.join(c)}" for c in found)
    assert not found, f"import cycles (imports inside functions count):\n{report}"
