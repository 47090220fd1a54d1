# The two commands of the quick start. Each brings in what it needs first.
.PHONY: video test setup

setup:
	@bash scripts/setup.sh

video: setup
	.venv/bin/python render.py

test:
	@bash scripts/setup.sh test
	.venv/bin/ruff check .
	.venv/bin/python -m pytest
