"""Every template's comments are comments: Django's ``{# ... #}`` ends at the end of its line, so
one spread over two lines is printed as text (the Fated screen showed its own developer note
under the title of every game, to every player, in both languages)."""

from __future__ import annotations

from pathlib import Path

import delve.server

TEMPLATES = Path(delve.server.__file__).parent / "templates"


def test_no_template_has_a_comment_over_several_lines() -> None:
    broken = []
    for path in sorted(TEMPLATES.rglob("*.html")):
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            rest = line
            while "{#" in rest:
                rest = rest[rest.index("{#") + 2 :]
                if "#}" not in rest:
                    broken.append(f"{path.relative_to(TEMPLATES)}:{number}")
                    break
                rest = rest[rest.index("#}") + 2 :]
    assert broken == [], "use {% comment %} for a comment over several lines: " + ", ".join(broken)
    assert list(TEMPLATES.rglob("*.html"))  # the templates are where the test looks
