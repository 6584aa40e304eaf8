"""The README's generated parts: the violation codes (from the rule docstrings), which
regulation prescribes what for each code (from the policies), the problem codes (from
``validator.errors.PROBLEM_CODES``) and the command synopses (from ``--help``).
``python -m validator.docs`` rewrites them in README.md; ``--check`` fails when the README
has drifted (``make test`` runs it through a test).

A generated part sits between ``<!-- BEGIN name -->`` and ``<!-- END name -->``.
"""

from __future__ import annotations

import re
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

import click

from validator.engine.rules import CODES, DECISION_CODES, RULES
from validator.errors import PROBLEM_CODES
from validator.judging.penalties import load_policy
from validator.vocab import REGULATIONS

__all__ = ["PARTS", "code_meaning", "render"]

_BLOCK = re.compile(r"(<!-- BEGIN (\w[\w-]*) -->\n).*?(<!-- END \2 -->)", re.S)


def code_meaning(code: str) -> str:
    """What a code means: the text after ``CODE:`` in its rule module's docstring, up to the
    end of that paragraph or the next code."""
    doc = RULES[code].__doc__ or ""
    for paragraph in doc.split("\n\n"):
        lines = paragraph.strip().splitlines()
        for i, line in enumerate(lines):
            if line.startswith(f"{code}: "):
                taken = [line.removeprefix(f"{code}: ")]
                for more in lines[i + 1:]:
                    if re.match(r"^[A-Z_]+: ", more):
                        break
                    taken.append(more.strip())
                return " ".join(taken)
    raise ValueError(f"the docstring of {code}'s rule does not say what {code} is")


def codes_table() -> str:
    rows = ["| code | what it means |", "|---|---|"]
    rows += [f"| `{code}` | {code_meaning(code)} |" for code in CODES]
    return "\n".join(rows) + "\n"


def problem_codes_table() -> str:
    rows = ["| code | what it means |", "|---|---|"]
    rows += [f"| `{code}` | {meaning} |" for code, meaning in PROBLEM_CODES.items()]
    return "\n".join(rows) + "\n"


def regulations_table() -> str:
    policies = [load_policy(r) for r in REGULATIONS]
    head = "| code | " + " | ".join(f"{p.regulation}: {p.title}" for p in policies) + " |"
    rows = [head, "|---|" + "---|" * len(policies)]
    for code in CODES:
        cells = []
        for policy in policies:
            rule = policy.codes[code]
            if code in DECISION_CODES:
                cells.append("head judge's decision; no penalty until settled")
            elif rule.penalty is None or rule.clause is None:
                cells.append("no clause — head judge's decision")
            else:
                cells.append(f"{policy.penalty_name(rule.penalty, 'en')} "
                             f"(§{rule.clause.section})")
        rows.append(f"| `{code}` | " + " | ".join(cells) + " |")
    return "\n".join(rows) + "\n"


def commands() -> str:
    from validator.cli import main

    context = click.Context(main, info_name="deckcheck")
    out = []

    def walk(group: click.Group, prefix: list[str]) -> None:
        for name in sorted(group.commands):
            command = group.commands[name]
            if isinstance(command, click.Group):
                walk(command, [*prefix, name])
                continue
            sub = click.Context(command, info_name=" ".join([*prefix, name]), parent=context)
            summary = " ".join((command.help or "").strip().split("\n\n")[0].split())
            options = [p.opts[0] for p in command.params
                       if isinstance(p, click.Option) and p.opts[0] != "--help"]
            out.append(f"{sub.command_path} {' '.join(command.collect_usage_pieces(sub))}")
            out.extend(textwrap.wrap(summary, 92, initial_indent="    ",
                                     subsequent_indent="    "))
            if options:
                out.extend(textwrap.wrap("options: " + " ".join(options), 92,
                                         initial_indent="    ", subsequent_indent="      "))
    walk(main, [])
    return "```text\n" + "\n".join(out) + "\n```\n"


PARTS: dict[str, Callable[[], str]] = {
    "codes": codes_table, "regulations": regulations_table,
    "problem-codes": problem_codes_table, "commands": commands}


def render(readme: str) -> str:
    """The README with every generated part written anew."""
    def fill(match: re.Match[str]) -> str:
        name = match.group(2)
        if name not in PARTS:
            raise ValueError(f"README names an unknown generated part {name!r}")
        return match.group(1) + PARTS[name]() + match.group(3)
    return _BLOCK.sub(fill, readme)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    path = Path(__file__).resolve().parent.parent / "README.md"
    text = path.read_text(encoding="utf-8")
    fresh = render(text)
    if "--check" in args:
        if fresh != text:
            print("README.md is out of date: run `python -m validator.docs`", file=sys.stderr)
            return 1
        return 0
    path.write_text(fresh, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
