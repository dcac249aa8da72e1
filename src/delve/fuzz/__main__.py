"""``python -m delve.fuzz`` (the same as ``delve fuzz``): see :func:`main`."""

from __future__ import annotations

import sys

from delve.fuzz.cli import main

sys.exit(main())
