"""``python -m konkun``: the same as the ``konkun`` command."""

import sys

from konkun.cli import main

sys.exit(main())
