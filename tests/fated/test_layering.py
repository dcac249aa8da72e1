"""The modules of delve.fated import each other top-down: no import cycle, and no import hidden
inside a function to get around one (only ``TYPE_CHECKING`` imports for annotations may point
upwards)."""

from __future__ import annotations

import ast
from pathlib import Path

import delve.fated

PACKAGE = Path(delve.fated.__file__).parent


def _imports(path: Path) -> tuple[set[str], list[str]]:
    """The delve.fated modules a module imports at run time, and where it imports one inside a
    function."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    nested: list[str] = []

    def visit(node: ast.AST, depth: int) -> None:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            return
        names: list[str] = []
        if isinstance(node, ast.ImportFrom) and node.module is not None:
            if node.module == "delve.fated":
                names = [alias.name for alias in node.names]
            elif node.module.startswith("delve.fated."):
                names = [node.module.split(".")[2]]
        elif isinstance(node, ast.Import):
            names = [a.name.split(".")[2] for a in node.names if a.name.startswith("delve.fated.")]
        for name in names:
            if (PACKAGE / f"{name}.py").exists():
                found.add(name)
                if depth:
                    nested.append(f"{path.stem}:{node.lineno} imports {name} inside a function")
        inner = depth + isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        for child in ast.iter_child_nodes(node):
            visit(child, inner)

    visit(tree, 0)
    return found - {path.stem}, nested


def _graph() -> tuple[dict[str, set[str]], list[str]]:
    graph: dict[str, set[str]] = {}
    nested: list[str] = []
    for path in sorted(PACKAGE.glob("*.py")):
        graph[path.stem], inner = _imports(path)
        nested += inner
    return graph, nested


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def walk(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt) :], nxt]
            if nxt not in state and (found := walk(nxt)):
                return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := walk(node)):
            return found
    return None


def test_fated_modules_import_each_other_without_cycles():
    graph, _ = _graph()
    cycle = _cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_no_fated_module_is_imported_inside_a_function():
    _, nested = _graph()
    assert nested == []


def test_the_checks_see_a_cycle_and_a_nested_import():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None
    graph, _ = _graph()
    assert "ctx" in graph["commands"]  # the parser sees `from delve.fated.ctx import Ctx`
