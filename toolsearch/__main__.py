"""``python -m toolsearch``: the same as the ``toolsearch`` console script."""

import sys

from .cli import main

sys.exit(main())
