"""`python -m api` is the same as `bluegray`."""

import sys

from api.cli import main

sys.exit(main())
