"""``python -m play``: the same as ``fh-play`` (:func:`play.cli.main`)."""

import sys

from play.cli import main

sys.exit(main())
