"""The wheel's build step: every ``validator/locale/<lang>/LC_MESSAGES/*.po`` compiled to the
``.mo`` beside it (Babel), so an installed copy reads compiled catalogs. English entries
have no translation in ``en.po``; the compiled English catalog holds each msgid as its
own text. The source checkout keeps only the ``.po`` files."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import Any

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from hatchling.builders.hooks.plugin.interface import BuildHookInterface

LOCALE = Path("validator") / "locale"


def compile_catalog(po: Path, mo: Path, lang: str) -> None:
    """One ``.po`` compiled to ``.mo``; in English a msgid is its own text."""
    with po.open("rb") as handle:
        catalog = read_po(handle, locale=lang)
    if lang == "en":
        for message in catalog:
            if message.id and not message.string:
                message.string = message.id
    mo.parent.mkdir(parents=True, exist_ok=True)
    with mo.open("wb") as handle:
        write_mo(handle, catalog)


class CatalogsHook(BuildHookInterface):  # type: ignore[type-arg]
    """Compiles the catalogs into the wheel (not for an editable install: it reads the
    ``.po`` files of the checkout)."""

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if version == "editable":
            return
        root = Path(self.root)
        out = self._compiled = Path(tempfile.mkdtemp(prefix="deckcheck-mo-"))
        for po in sorted((root / LOCALE).glob("*/LC_MESSAGES/*.po")):
            relative = po.relative_to(root).with_suffix(".mo")
            compile_catalog(po, out / relative, po.parent.parent.name)
            build_data["force_include"][str(out / relative)] = str(relative)

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        """The compiled catalogs' folder removed once they are in the wheel."""
        compiled = getattr(self, "_compiled", None)
        if compiled is not None:
            shutil.rmtree(compiled, ignore_errors=True)
