from mafiacam.cli import main

raise SystemExit(main())
