"""The kernel is shared by every front end and every stage, so it imports none of them: no stage,
no front door, and no library only a front end needs. Checked on the source, so a lazy import
inside a function counts too."""

from __future__ import annotations

import ast

import pytest

from tests.conftest import REPO

FRONT_END_LIBRARIES = {"click", "rich", "mcp", "starlette", "uvicorn", "httpx", "anyio"}
NOT_KERNEL = ("pica.stages", "pica.cli", "pica.mcp", "pica.ui")
KERNEL_MODULES = sorted((REPO / "kernel").rglob("*.py"))


def imported_names(path) -> list[tuple[int, str]]:
    """Every module an import statement in the file names, with its line (relative imports resolved
    against pica.kernel)."""
    names = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            names += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(["pica", "kernel"][: 3 - node.level] + ([base] if base else []))
            names += [(node.lineno, base)]
            names += [(node.lineno, f"{base}.{alias.name}") for alias in node.names]
    return names


def forbidden(name: str) -> bool:
    return name.split(".")[0] in FRONT_END_LIBRARIES or any(
        name == prefix or name.startswith(prefix + ".") for prefix in NOT_KERNEL
    )


@pytest.mark.parametrize("path", KERNEL_MODULES, ids=lambda p: p.name)
def test_the_kernel_imports_no_stage_and_no_front_end(path):
    bad = [f"{path.name}:{line}: {name}" for line, name in imported_names(path) if forbidden(name)]
    assert not bad, "the kernel must not import these:\n" + "\n".join(bad)


def test_the_check_sees_lazy_and_from_imports(tmp_path):
    module = tmp_path / "m.py"
    module.write_text(
        "def f():\n    import rich.console\n    from pica.stages.fuse import x\n    from pica import cli\n"
    )
    assert [name for _, name in imported_names(module) if forbidden(name)] == [
        "rich.console",
        "pica.stages.fuse",
        "pica.stages.fuse.x",
        "pica.cli",
    ]
