"""``docs/extending.rst``'s examples run as doctests."""

import doctest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_extending_page_examples() -> None:
    failures, tried = doctest.testfile(
        str(ROOT / "docs" / "extending.rst"), module_relative=False, optionflags=doctest.NORMALIZE_WHITESPACE
    )
    assert tried > 20
    assert failures == 0
