"""The package's layout: stages of the data flow that import only from the stages below them
(the contract in ``pyproject.toml``), no import cycle, few modules loose at the top, and
tests that mirror the modules."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parent.parent
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")
#: the modules that may sit loose at the top of validator/ (shared words, errors, entry points,
#: the program's allocator set up and modules deferred before polars is loaded)
LOOSE = {"allocator", "cli", "deferred", "docs", "errors", "vocab"}


def _lint_imports(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(LINT_IMPORTS), "--no-cache"], cwd=root, capture_output=True,
                          text=True, timeout=120, env={"PYTHONPATH": str(root)})


def test_no_module_imports_one_that_imports_it_back() -> None:
    graph = grimp.build_graph("validator", cache_dir=None)
    cycles = sorted(
        (module, imported)
        for module in graph.modules
        for imported in graph.find_modules_directly_imported_by(module)
        if graph.chain_exists(importer=imported, imported=module)
        and not module.startswith(imported + ".") and not imported.startswith(module + "."))
    assert cycles == []


def test_the_layer_contract_holds() -> None:
    done = _lint_imports(ROOT)
    assert done.returncode == 0, done.stdout[-3000:]
    assert "1 kept, 0 broken" in done.stdout


def test_the_layer_contract_breaks_on_an_import_from_a_later_stage(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "validator", tmp_path / "validator",
                    ignore=shutil.ignore_patterns("__pycache__", "data", "static", "templates"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    db = tmp_path / "validator" / "cards" / "db.py"
    db.write_text(db.read_text() + "\nimport validator.report.json  # a card module, a report\n")
    done = _lint_imports(tmp_path)
    assert done.returncode == 1
    assert "validator.cards.db -> validator.report.json" in done.stdout


def test_only_a_few_modules_sit_loose_at_the_top() -> None:
    loose = {p.stem for p in (ROOT / "validator").glob("*.py") if p.stem != "__init__"}
    assert loose == LOOSE


def test_the_readme_names_every_package_of_the_layout() -> None:
    readme = (ROOT / "README.md").read_text()
    layout = readme[readme.index("## How the code is laid out"):]
    packages = sorted(p.parent.name for p in (ROOT / "validator").glob("*/__init__.py"))
    assert packages  # the package has subpackages to name
    assert [p for p in packages if f"`{p}/`" not in layout] == []


def _mirrored_test(module: Path) -> Path:
    """validator/a/b.py → tests/a/test_b.py"""
    relative = module.relative_to(ROOT / "validator")
    return ROOT / "tests" / relative.parent / f"test_{relative.name}"


def _modules() -> list[Path]:
    """Every module of the package but ``__init__`` and private helpers (``_name.py``)."""
    return sorted(p for p in (ROOT / "validator").rglob("*.py") if not p.name.startswith("_"))


def test_every_module_has_its_own_test_file_at_the_mirrored_path() -> None:
    modules = _modules()
    assert len(modules) > 50  # the whole package, not an empty glob
    missing = [str(m.relative_to(ROOT)) for m in modules if not _mirrored_test(m).is_file()]
    assert missing == []
    empty = [str(_mirrored_test(m).relative_to(ROOT)) for m in modules
             if _mirrored_test(m).is_file()
             and "\ndef test_" not in _mirrored_test(m).read_text(encoding="utf-8")]
    assert empty == []
