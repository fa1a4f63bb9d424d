"""`python -m bench`."""

from .cli import main

raise SystemExit(main())
