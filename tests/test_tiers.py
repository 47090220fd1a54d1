"""The suite's own arrangement: what each test shares decides its pytest-xdist group, and
pytest-xdist sees that group (a chapter's builds on one worker, where each is made once)."""

from __future__ import annotations

import os

import pytest

from tests.conftest import sharing

pytestmark = pytest.mark.builds("attention")


def test_a_module_that_builds_a_chapter_shares_its_workers_group(request):
    assert sharing(request.node) == "chapter attention"
    if os.environ.get("PYTEST_XDIST_WORKER"):  # what --dist loadgroup schedules by
        assert request.node.nodeid.endswith("@chapter attention")


@pytest.mark.parametrize("chapter", ["attention", "decoder"])
def test_a_test_that_names_its_chapter_joins_that_chapters_group(request, chapter):
    request.node.add_marker(pytest.mark.builds(param="chapter"))
    assert sharing(request.node) == f"chapter {chapter}"
