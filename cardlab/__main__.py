"""``python -m cardlab`` runs the command line."""

import sys

from cardlab.cli import main

sys.exit(main())
