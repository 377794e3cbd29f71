"""``python -m toolsearch``: the same as the ``toolsearch`` console script."""

import sys

from .cli.commands import main

sys.exit(main())
